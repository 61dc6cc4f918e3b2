# frozen_string_literal: true

require "test_helper"
require "ractorbench/analysis"
require "ractorbench/analysis/warnings"
require "ractorbench/analysis/row"

# A warning declares the options its advice asks for: a command that
# refuses one (the tour chooses its own sizes and worker counts) gets the
# advice it can take, or no warning, never advice it would refuse. Nothing
# is read from the warning's words.
class WarningAdviceTest < Minitest::Test
  W = Ractorbench::Analysis::Warnings
  MACHINE = Ractorbench::Store::Header::Machine.new({"usable_cores" => 2})

  def row(workers: 2, stddev: 0.5, **figures)
    Ractorbench::Analysis::Row.new(workload: "prime", model: "threads", workers: workers, messages: 10, params: "", ruby: "ruby",
      samples: 6, speedup: 1.5, messages_time: Ractorbench::Stats::Descriptive::Figures.new(median: 1.0, mean: 1.0, stddev: stddev), **figures)
  end

  def test_noisy_runs_keep_the_advice_the_command_takes
    warning = W.spread([row])
    assert_equal ["--messages"], warning.needs
    assert_equal warning.message, warning.for_options([])
    assert_match(/more --messages/, warning.message)
    assert_match(/; close other programs, and add --reps\z/, warning.for_options(["--messages", "--workers"]))
    refute_match(/--messages/, warning.for_options(["--messages"]))
  end

  def test_advice_that_needs_only_a_refused_option_is_left_out
    over = W.oversubscribed([row(workers: 4)], MACHINE)
    assert_match(/use --workers up to 2/, over.for_options(["--scale"]))
    assert_nil over.for_options(["--workers"])
  end

  # Every option a warning's advice names is one it declares or one every
  # collecting command takes: a new warning cannot slip an option past the
  # tour by leaving it out of `needs`.
  def test_every_named_option_is_declared_or_always_taken
    always = %w[--reps --first-run --wait-quiet --cpus]
    warnings = [W.spread([row]), W.oversubscribed([row(workers: 4)], MACHINE), W.too_short([row(speedup: 0.01)]),
      W.idle_workers([row(idle_worker_runs: 1, idle_worker_jobs: [3, 0])]), W.few_samples([row(samples: 2)])]
    warnings.each do |warning|
      named = warning.message.scan(/--[a-z][a-z-]*/).uniq
      assert_empty named - warning.needs - always, "#{warning.code}: names options it does not declare"
    end
  end
end
