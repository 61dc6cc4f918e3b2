# frozen_string_literal: true

module Ractorbench
  module Stats
    # For a Struct a row keeps (a sample's figures, an interval): read by
    # method, its to_h has the string keys the JSON report prints, in the
    # members' order (Analysis::Row#to_h turns these back).
    module StringKeys
      def to_h = super.transform_keys(&:to_s)
    end
  end
end
