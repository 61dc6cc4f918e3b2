# frozen_string_literal: true

module Ractorbench
  module Store
    # What a run says about itself, by name, for both ways a run is held: a
    # RunRecord (one Hash, as the collector has it) and a RunView (a row of a
    # file's Columns).
    module RunFields
      def id = self["id"]
      def status = self["status"]
      def ok? = status == "ok"
      def failed? = status == "failed"
      def unsupported? = status == "unsupported"
      def reason = self["reason"]
      def digest = self["digest"]
      def messages_time = self["messages_time"]
      def whole_time = self["whole_time"]
      def cpu_seconds = self["user"].to_f + self["system"].to_f

      # Other programs kept the machine busy during this run (Measure::Interference).
      def disturbed? = self["disturbed"] == true
    end
  end
end
