# frozen_string_literal: true

require_relative "../measure/interference"

module Ractorbench
  class Analysis
    # What disturbed runs mean for a verdict. Measure::Interference records
    # each run's others_cpu, steal and whether it was disturbed; judging
    # them is analysis: which cause it was (steal is other virtual machines
    # on the host, so closing programs here does not help), and when so many
    # runs were disturbed that no verdict is given.
    module Analysis::Disturbed
      module_function

      # Whether a recorded run was disturbed more by the hypervisor than by
      # other programs: closing programs will not help it.
      def stolen?(run)
        run.steal.to_f > run.others_cpu.to_f && share(run, "steal") > Measure::Interference::STEAL_SHARE
      end

      # Whether ractorbench itself was stopped while the run was in flight
      # (Ctrl-Z, SIGSTOP): neither other programs nor the hypervisor.
      def stopped?(run) = run.collector_stopped.to_f.positive?

      STOPPED = ["by ractorbench being stopped while they ran (Ctrl-Z, SIGSTOP, a suspended machine)",
        "let a collection run without stopping it (Ctrl-C stops it and `run --resume` goes on)"].freeze

      # A recorded run's figure (others_cpu, steal: a field's name) as a share of its wall time.
      def share(run, field) = run[field].to_f / [run.whole_time.to_f, 1e-9].max

      # Whether most of these disturbed runs were disturbed by steal.
      def mostly_stolen?(runs) = runs.count { |run| stolen?(run) } * 2 > runs.size

      # Whether so many of some runs were disturbed (more than half) that
      # they give no verdict: a file `report` calls INCONCLUSIVE, a
      # configuration `compare` and `report --by` call inconclusive.
      def too_many?(disturbed, runs) = disturbed * 2 > runs

      # The INCONCLUSIVE line of any verdict refused for disturbed runs
      # (`report`, `compare`, `report --by`): counted ("8 of 12 runs"),
      # their cause, anything more to say, and what to do.
      def busy_line(counted, disturbed_runs, more = nil)
        cause, remedy = cause_and_remedy(disturbed_runs)
        busy = "the machine was busy: " unless cause == STOPPED.first
        "INCONCLUSIVE: #{busy}#{counted} were disturbed #{cause}#{", #{more}" if more}, so no verdict " \
          "is given; #{remedy}"
      end

      # What disturbed most of these runs, and what to do about it.
      def cause_and_remedy(disturbed_runs)
        if disturbed_runs.count { |run| stopped?(run) } * 2 > disturbed_runs.size
          STOPPED
        elsif mostly_stolen?(disturbed_runs)
          ["by the hypervisor taking CPU from this VM (steal)", "run again when the host is quieter, or on a machine " \
            "of your own (closing programs here will not help)"]
        else
          ["by other programs", "close them, or run again with --wait-quiet"]
        end
      end
    end
  end
end
