# frozen_string_literal: true

# The driver: everything here runs in the ractorbench process, never in the
# measured child (that code lives under harness/).
require_relative "ractorbench/base/paths"
require_relative "ractorbench/base/version"
require_relative "ractorbench/base/errors"
require_relative "ractorbench/cli"
require_relative "ractorbench/api"
