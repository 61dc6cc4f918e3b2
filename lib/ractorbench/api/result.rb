# frozen_string_literal: true

require_relative "../store"
require_relative "../analysis"
require_relative "../analysis/rows"
require_relative "../analysis/winners"
require_relative "../reports/parts/verdict"
require_relative "../advisor/outcome"
require_relative "../plan/configuration"
require_relative "../stats/bootstrap"

module Ractorbench
  module API
    # What Ractorbench.try and Ractorbench.run return: the figures read back
    # from the results file the command wrote, the verdict in words, and
    # what the command printed.
    class Result
      # One model's speedup over serial at one configuration, with its 95%
      # bootstrap interval: low and high are nil under 6 runs (samples), which
      # interval? says before anything reads them; to_s says it either way.
      Speedup = Struct.new(:workload, :params, :model, :workers, :messages, :ruby, :speedup, :low, :high, :samples,
        keyword_init: true) do
        def interval? = !low.nil? && !high.nil?

        # [low, high], or nil under 6 runs.
        def interval = interval? ? [low, high] : nil

        # "1.80× [1.62, 1.91] (n=6)", or "1.80× (n=3: no interval under 6 runs)".
        def to_s
          base = format("%.2f×", speedup)
          if interval?
            format("%s [%.2f, %.2f] (n=%d)", base, low, high, samples)
          else
            "#{base} (n=#{samples}: no interval under #{Stats::Bootstrap::MIN_SAMPLES} runs)"
          end
        end
      end

      # kind: :try or :run; path: the results file (nil after a check only);
      # text, log: what the command printed on stdout and stderr.
      attr_reader :kind, :path, :exit_code, :text, :log

      def initialize(kind:, path:, exit_code:, text:, log:, analysis: nil)
        @kind = kind
        @path = path
        @exit_code = exit_code
        @text = text
        @log = log
        @analysis = analysis
      end

      # A results file as the Result Ractorbench.try or .run returned when it
      # wrote it (they read their figures back from it the same way). The
      # file keeps no exit code and no printed text: those are nil.
      def self.read(path)
        analysis = Analysis.new(Store.read(path))
        kind = Advisor::Outcome.try?(analysis) ? :try : :run
        new(kind: kind, path: path, exit_code: nil, text: nil, log: nil, analysis: analysis)
      end

      # The command's exit code was 0: try answered (a recommendation, or
      # what it takes to tell); run's runs all succeeded and every model agreed. nil for a Result read from a
      # file, which does not keep it.
      def ok? = exit_code&.zero?

      def analysis = @analysis ||= path && Analysis.new(Store.read(path))

      # The figures of every configuration (Analysis::Row: row.model,
      # row.workers, row.speedup, row.messages_time.median, ...), as every
      # report shows them.
      def rows = analysis ? Analysis::Rows.for(analysis) : []

      def speedups
        rows.select { |r| r.speedup && !r.baseline? }.map do |r|
          ci = r.speedup_ci
          Speedup.new(workload: r.workload, params: r.params, model: r.model, workers: r.workers, messages: r.messages,
            ruby: r.ruby, speedup: r.speedup, low: ci&.low, high: ci&.high, samples: r.samples)
        end
      end

      # try: its recommendation, line by line ("Recommendation: use ...",
      # then the reasons). run: for each workload and size, the fastest
      # model and how sure that is - after INCONCLUSIVE when most runs were
      # disturbed by other programs (those are left out of any verdict).
      def recommendation
        return [] unless analysis
        return outcome.recommendation if kind == :try

        busy = Reports::Parts::Verdict.busy?(analysis) ? [Reports::Parts::Verdict.inconclusive(analysis)] : []
        busy + Analysis::Winners.for(Analysis::Rows.pairs(analysis)).map do |e|
          "#{Plan::Configuration.title(e.workload, e.params)} W=#{e.workers} M=#{e.messages} #{e.ruby}: " \
            "#{e.winner.model} fastest, #{Analysis::Winners.verdict(e)}"
        end
      end

      # try: why a model could not run the work, each as the lines try prints.
      def diagnoses = (kind == :try && analysis) ? outcome.diagnoses.map(&:lines) : []

      def outcome = @outcome ||= Advisor::Outcome.new(analysis)
    end
  end
end
