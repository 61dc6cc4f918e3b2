# frozen_string_literal: true

require_relative "facts"
require_relative "problem_facts"

module Ractorbench
  module Advisor
    # An item or result Marshal could not write (harness/try/marshal_check.rb).
    MarshalFacts = Facts.value(:what, :index, :message, :path, :class_name, keys: Facts::CLASS_NAME)

    # Whether another fiber ran while work waited (harness/try/fiber_probe.rb);
    # unknown: why the probe could not tell.
    FiberProbeFacts = Facts.value(:overlaps, :ticks, :seconds, :async, :unknown)

    # State work left changed (harness/try/lasting_state.rb).
    StateChange = Facts.value(:kind, :name, :change, :where)

    # The fix the ractor part's remedies add up to, and how its check went
    # (harness/try/fix_check.rb).
    FixFacts = Facts.value(:lines, :where, :verified, :loads, :why, :still, :blocked_by)

    # Where a check that did not pass stopped (harness/try/preflight.rb):
    # bad input (its problem and the user's line), or the time limit met (the
    # stage, the line it was running, in which part, whether one item at a
    # time finishes).
    CheckStop = Facts.value(:status, :problem, :location, :stage, :inside, :source, :finishes_serially)

    # The check's final record of the user's file (harness/try/preflight.rb),
    # with what RactorRounds added: the rounds, the candidates, the copy's
    # own count of items a ractor got through. A try's results file keeps it
    # in its header ("try" → "preflight").
    CheckRecord = Facts.value(:status, :file, :module_name, :work_location, :items_location, :sampled, :seconds_per_item, :cpu_share,
      :result_bytes, :marshal, :lasting_state, :fiber_probe, :ractor_available, :fork_available, :shareable_proc,
      :threads_problems, :threads_checked, :threads_count, :ractor_problems, :ractor_checked, :ractor_stopped_at,
      :ractor_fix, :ractor_rounds, :ractor_candidates, :ractor_limit, :ractor_checked_copy, keys: {module_name: "module"},
      kinds: {marshal: MarshalFacts, fiber_probe: FiberProbeFacts, lasting_state: StateChange, ractor_fix: FixFacts,
              threads_problems: ProblemFacts, ractor_problems: ProblemFacts})
  end
end
