# frozen_string_literal: true

module Ractorbench
  ROOT = File.expand_path("../../..", __dir__)
  # What runs inside the measured child lives here, apart from the driver.
  HARNESS_DIR = File.join(ROOT, "harness")
end
