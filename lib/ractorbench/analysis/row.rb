# frozen_string_literal: true

require_relative "../plan/configuration"
require_relative "../plan/panel"
require_relative "group"
require_relative "../../../harness/ractorbench/harness/fields"
require_relative "uncertainty"
require_relative "efficiency"
require_relative "work_spread"
require_relative "gap"
require_relative "../stats/descriptive"

module Ractorbench
  class Analysis
    # The figures of one configuration, the same for every format (text,
    # Markdown, CSV, JSON, HTML, bm), so they cannot drift apart. A new
    # figure is a new member here and its value in `for`; the JSON report
    # lists the members in this order. Read by method (row.speedup);
    # row["name"] is for an added field's name and the JSON boundary.
    #
    # Its members: ROW_HEAD, then the field table's median figures
    # (Harness::Fields, Group::COSTS) not among them, in the table's order,
    # then ROW_TAIL (Uncertainty.row, WorkSpread.row, Efficiency.row and
    # Gap.row make those from messages_time_ci on); `added`: the medians of
    # fields a --load file declared, as the results header records them
    # (read by name, listed last).
    ROW_HEAD = %i[
      workload model workers messages params ruby samples failed unsupported
      messages_time whole_time speedup whole_speedup cpu_utilisation cpu_seconds peak_memory_kb gc_count
    ].freeze
    ROW_TAIL = %i[
      disturbed_runs
      messages_time_ci whole_time_ci cpu_utilisation_ci speedup_ci outliers first_run
      idle_worker_runs idle_worker_jobs
      usable_cores cores_used oversubscribed parallel_efficiency cpu_cost baseline_cpu_seconds
      baseline_samples contention vm_serialises settings
      work_share extra_cpu_share idle_share fixed_cost_seconds
    ].freeze
    Row = Struct.new(*ROW_HEAD, *(Group::COSTS.map(&:to_sym) - ROW_HEAD), *ROW_TAIL, :added, keyword_init: true) do
      def self.for(group, header)
        figures = {
          "workload" => group.workload, "model" => group.model, "workers" => group.workers,
          "messages" => group.messages, "params" => group.params_label, "ruby" => group.ruby,
          "samples" => group.messages_time.n, "failed" => group.failed_runs.size,
          "unsupported" => group.unsupported_reason,
          "messages_time" => group.messages_time.figures, "whole_time" => group.whole_time.figures,
          "speedup" => group.speedup, "whole_speedup" => group.whole_speedup,
          "cpu_utilisation" => group.cpu_utilisation.median,
          "cpu_seconds" => group.cpu_seconds.median,
          "peak_memory_kb" => group.peak_memory_kb.median,
          **Group::COSTS.to_h { |k| [k, group.cost(k)] },
          # Runs during which other programs kept the CPUs busy (nil: not measured).
          "disturbed_runs" => (group.disturbed_runs.size if group.interference_recorded?)
        }.merge(Uncertainty.row(group), WorkSpread.row(group), Efficiency.row(group, header), Gap.row(group, header))
        new(**figures.transform_keys(&:to_sym), added: added(group, header)).tap { |row| row.traits = [group.baseline_model?, group.ceiling_of] }
      end

      # The medians of the fields the file's header records as declared by
      # a --load file (Harness::Fields.recorded), or nil.
      def self.added(group, header)
        fields = Harness::Fields.recorded(header&.fields).select(&:median?)
        fields.empty? ? nil : fields.to_h { |f| [f.name, group.cost(f.name)] }
      end

      # What the row's model is (traits of the model, not figures: kept out
      # of to_h and so of every format's columns), as [baseline?, ceiling_of].
      attr_writer :traits

      # Whether the row's model is the one speedups are measured against.
      def baseline? = @traits&.first || false

      # The per-job models the row's model (a split) is the ceiling of.
      def ceiling_of = @traits&.last || []

      # By member name, as a Struct reads, or an added field's name.
      def [](name) = ROW_NAMES.key?(name) ? super : added&.[](name.to_s)

      # String keys, as the JSON report and its readers have them; added
      # fields last.
      def to_h = (members - [:added]).to_h { |m| [m.to_s, plain(self[m])] }.merge(added || {})

      def to_json(*args) = to_h.to_json(*args)

      # A member's value as the JSON report prints it (figures and intervals
      # as Hashes).
      private def plain(value) = value.is_a?(Stats::StringKeys) ? value.to_h : value

      # By name, as a Hash would: row.values_at("workload", "ruby").
      def values_at(*names) = names.map { |name| self[name] }

      def configuration
        Plan::Configuration.new(workload: workload, model: model, workers: workers, messages: messages, params: nil, ruby: ruby)
      end

      def title = Plan::Configuration.title(workload, params)

      # "fib/threads/w2/m1/n=30/ruby": as Configuration#label, from the row's
      # params text.
      def label = Plan::Configuration.label_of(workload: workload, model: model, workers: workers, messages: messages, params: params, ruby: ruby)

      # The label without the internal parameters, as warnings name a row.
      def shown_label
        Plan::Configuration.shown_label(workload: workload, model: model, workers: workers, messages: messages, params: params, ruby: ruby)
      end

      # All models of this row's workload, size and Ruby (Plan::Panel).
      def panel = Plan::Panel.new(workload: workload, params: params, workers: workers, messages: messages, ruby: ruby)
    end
    # Every member's name, as a Symbol and as a String (Row#[]).
    ROW_NAMES = (Row.members - [:added]).flat_map { |m| [m, m.to_s] }.to_h { |m| [m, true] }.freeze
  end
end
