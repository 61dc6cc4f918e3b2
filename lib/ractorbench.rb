# frozen_string_literal: true

# The driver: everything here runs in the ractorbench process, never in the
# measured child (that code lives under harness/).
module Ractorbench
  ROOT = File.expand_path("..", __dir__)
  HARNESS_DIR = File.join(ROOT, "harness")
end

require_relative "ractorbench/version"
require_relative "ractorbench/errors"
require_relative "ractorbench/cli"
