# frozen_string_literal: true

module Ractorbench
  module Advisor
    # One thing a model cannot do with the user's work: what (the object),
    # where (file:line and its source), why the model refuses it, and the
    # fix; fix is nil when a combined fix further down covers it.
    Finding = Struct.new(:what, :where, :source, :why, :fix, keyword_init: true) do
      # "a Hash", "an Array".
      def self.a(name) = "#{/\A[AEIOU]/i.match?(name.to_s) ? "an" : "a"} #{name}"

      # Its object without the particulars: "constant Object::BODIES".
      def short = what.sub(/ \(.*/m, "")
    end
  end
end
