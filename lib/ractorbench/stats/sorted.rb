# frozen_string_literal: true

module Ractorbench
  module Stats
    # A sample as the statistics read it: nils left out, Floats, in order.
    def self.sorted(values) = values.compact.map(&:to_f).sort
  end
end
