# frozen_string_literal: true

require_relative "../base/errors"

module Ractorbench
  class Analysis
    # What to do with the first run of each configuration (its earliest
    # successful run in collection order). Every run is a fresh process, so a
    # JIT's warm-up happens inside every run alike; what the first run alone
    # pays for is state outside the process: the Ruby binary, its gems and the
    # workload's files not yet in the page cache, JIT code caches some Rubies
    # keep on disk (JRuby, TruffleRuby), a CPU still ramping up its clock.
    #
    #   include  the first run counts like any other (the default for an
    #            interpreter-only Ruby: there is little to warm up)
    #   exclude  it is kept out of the statistics, and shown apart as "1st run"
    #   auto     exclude for a Ruby with a JIT enabled (YJIT, ZJIT, MJIT, RJIT,
    #            JRuby, TruffleRuby), include otherwise
    #
    # The first run is always reported on its own (the 1st-run column), so a
    # cold start is visible instead of averaged away (ruby-bench's "1st itr").
    # A configuration keeps at least two runs: with fewer the first stays in.
    class Analysis::FirstRun
      MODES = %w[auto include exclude].freeze
      JIT_FLAGS = %w[--yjit --zjit --rjit --mjit --jit].freeze
      JIT_ENGINES = %w[jruby truffleruby].freeze

      attr_reader :mode

      def self.parse(text)
        raise UsageError, "--first-run must be one of #{MODES.join(", ")}, got #{text.inspect}" unless MODES.include?(text)

        text
      end

      def initialize(mode, header)
        @mode = mode || "auto"
        @rubies = (header&.rubies || []).to_h { |r| [r.name, r] }
      end

      # Which of these (successful) runs came first, given each run's seq
      # and rep: the lowest seq, then rep. An index, so the analysis asks
      # with two columns and not a record per run.
      def first_index(seqs, reps)
        return nil if seqs.empty?

        earliest = seqs.all?(Integer) && seqs.min
        # Unique seqs, as one collection writes them: no pass a run.
        return seqs.index(earliest) if earliest && seqs.count(earliest) == 1

        (0...seqs.size).min_by { |i| [seqs[i] || Float::INFINITY, reps[i].to_i] }
      end

      def exclude?(ruby_name, ok_count)
        return false if ok_count <= 2

        mode == "exclude" || (mode == "auto" && jit?(ruby_name))
      end

      def jit?(ruby_name)
        ruby = @rubies[ruby_name]
        return false unless ruby

        info = ruby.info
        features = info.features
        features.yjit_enabled || features.jit_enabled || JIT_ENGINES.include?(info.engine) ||
          Array(ruby.argv).any? { |a| JIT_FLAGS.any? { |f| a == f || a.start_with?("#{f}-", "#{f}=") } } ||
          (ruby.env || {}).any? { |k, v| k.match?(/\ARUBY_(Y|Z)JIT_ENABLE\z/) && v.to_s != "0" } || false
      end

      def describe
        case mode
        when "include" then nil
        when "exclude" then "the first run of each configuration is left out of the statistics (--first-run exclude)"
        else
          jits = @rubies.keys.select { |name| jit?(name) }
          return nil if jits.empty?

          "the first run of each configuration on #{jits.join(", ")} (JIT enabled) is left out of the statistics " \
            "(--first-run include keeps it)"
        end
      end
    end
  end
end
