# frozen_string_literal: true

require_relative "json_value"
require_relative "summary"
require_relative "../plan/configuration"

module Ractorbench
  module Profile
    # The "profile" line of one profiled run (ProfiledRuns writes it,
    # Records reads it back): its configuration as a run spec has it, the
    # tool, how the run ended as the Outcome said, the profile's file beside
    # the results file and its Summary.
    Record = Struct.new(:type, :id, :started_at, :workload, :model, :workers, :messages, :params, :ruby, :tool, :status,
      :failure, :reason, :messages_time, :whole_time, :stderr_tail, :file, :profile, keyword_init: true) do
      include JsonValue

      def self.from(hash) = super&.tap { |record| record.profile = Summary.from(record.profile) }

      def ok? = status == "ok"
      def failed? = status == "failed"
      def unsupported? = status == "unsupported"

      # Its configuration, names made printable as a run's are.
      def configuration = @configuration ||= Plan::Configuration.of(to_h)
    end

    # The keys that name its configuration.
    Record::CONFIGURATION = Plan::Configuration::KEYS
  end
end
