# frozen_string_literal: true

module Ractorbench
  VERSION = "0.1.0"
end
