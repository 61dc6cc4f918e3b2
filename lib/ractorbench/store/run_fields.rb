# frozen_string_literal: true

require_relative "../../../harness/ractorbench/harness/fields"

module Ractorbench
  module Store
    # What a run says about itself, by name, for both ways a run is held: a
    # RunRecord (one Hash, as the collector has it) and a RunView (a row of a
    # file's Columns). A reader per field of the field table (run.messages_time,
    # run.minor_faults, ...), made from it; a field a --load file declares is
    # read as run["name"].
    module RunFields
      Harness::Fields.all.each do |field|
        name = field.name
        define_method(name) { self[name] }
      end

      def ok? = status == "ok"
      def failed? = status == "failed"
      def unsupported? = status == "unsupported"
      def cpu_seconds = user.to_f + system.to_f

      # Other programs kept the machine busy during this run (Measure::Interference).
      def disturbed? = disturbed == true
    end
  end
end
