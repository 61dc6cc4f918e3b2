# frozen_string_literal: true

require_relative "../base/printable"
require_relative "panel"

module Ractorbench
  module Plan
    # Parameters a run hands its workload that are not part of what is
    # measured: try's seconds_per_item (the check's time per item, a hint
    # for models that hand items out) and file_digest (the file's digest
    # as checked, which each run compares). Part of the label, so of every
    # run id; never in a title.
    INTERNAL_PARAMS = %w[seconds_per_item file_digest].freeze
    # Parameters that say where the work lay, not what it is: `compare` pairs
    # two try files of one module wherever each file was (the header's
    # digest of the file says whether it changed).
    PLACE_PARAMS = %w[file].freeze
    INTERNAL_PAIR = /(?:\A|,)(?:#{INTERNAL_PARAMS.map { |k| Regexp.escape(k) }.join("|")})=[^,]*/

    # What makes runs samples of one measurement: a workload with its
    # parameters, under one model, at one size, on one Ruby. Its label and
    # title are built here once; every report and warning names a
    # configuration the same way.
    Configuration = Struct.new(:workload, :model, :workers, :messages, :params, :ruby, keyword_init: true) do
      # Names as printable text (Printable.name): a name from a results file
      # never reaches a terminal with its control characters.
      def self.of(record)
        params = (record["params"] || {}).to_h { |k, v| [Printable.name(k), Printable.name(v)] }
        new(workload: Printable.name(record["workload"]), model: Printable.name(record["model"]), workers: record["workers"],
          messages: record["messages"], params: params, ruby: Printable.name(record["ruby"]))
      end

      # "n=3,x=12", or nil without parameters.
      def self.params_label(params)
        return nil if params.nil? || params.empty?

        params.sort.map { |k, v| "#{k}=#{v}" }.join(",")
      end

      # A params_label without the internal parameters, or nil when none is
      # left. Their values are numbers, so a pair ends at the next comma.
      def self.shown_params(params_text)
        shown = params_text.to_s.gsub(INTERNAL_PAIR, "").delete_prefix(",")
        shown.empty? ? nil : shown
      end

      # "fib (n=30)", or the workload alone; params_text: an already built
      # params_label (reports' rows carry that, not the hash).
      def self.title(workload, params_text)
        shown = shown_params(params_text)
        shown ? "#{workload} (#{shown})" : workload.to_s
      end

      def params_label = self.class.params_label(params)

      # What pairs this configuration with another file's: its parameters
      # without the internal ones and the place of the work.
      def pairing_params = self.class.params_label(params.to_h.except(*INTERNAL_PARAMS, *PLACE_PARAMS))

      # The one builder of a label's text: "prime/threads/w2/m1000/n=3/ruby";
      # params: the parameters' label text; model nil for a panel's label.
      def self.label_of(workload:, model:, workers:, messages:, params:, ruby:)
        [workload, model, "w#{workers}", "m#{messages}", params, ruby].compact.join("/")
      end

      # A label as reports name a configuration: without the internal
      # parameters (INTERNAL_PARAMS); model nil for a panel's.
      def self.shown_label(workload:, workers:, messages:, params:, ruby:, model: nil)
        label_of(workload: workload, model: model, workers: workers, messages: messages, params: shown_params(params), ruby: ruby)
      end

      # "prime/threads/w2/m1000/n=3/ruby": unique per configuration; a run's
      # id is this label and its repetition.
      def label
        self.class.label_of(workload: workload, model: model, workers: workers, messages: messages, params: params_label, ruby: ruby)
      end

      def title = self.class.title(workload, params_label)

      # A planned run's id: the label and the repetition. label: an already
      # built label (the results reader checks a million ids against one).
      def self.run_id(label, rep) = "#{label}/rep#{rep}"

      def run_id(rep) = self.class.run_id(label, rep)

      # The configurations whose speedups are comparable (Plan::Panel): all
      # models of one workload, size and Ruby.
      def panel = Panel.new(workload: workload, params: params_label, workers: workers, messages: messages, ruby: ruby)

      # The shard fingerprint's form of a run (Shard.fingerprint): the id
      # with every field in place, the Ruby left out, empty parameters kept
      # as an empty part, as recorded fingerprints have it.
      def rubyless_id(rep)
        self.class.run_id(self.class.label_of(workload: workload, model: model, workers: workers, messages: messages,
          params: params_label.to_s, ruby: nil), rep)
      end

      # Serial ignores the worker count: a serial run of the same jobs
      # (workers x messages) at another count is the same computation.
      def jobs_key = [workload, workers.to_i * messages.to_i, params_label, ruby]
    end

    # A run line's keys that name its configuration.
    Configuration::KEYS = Configuration.members.map(&:to_s).freeze
  end
end
