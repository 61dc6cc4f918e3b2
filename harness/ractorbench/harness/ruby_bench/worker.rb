# frozen_string_literal: true

require_relative "../ractor_compat"
require_relative "../run_cost"
require_relative "refusal"
require_relative "value_digest"
require_relative "worker_gc"

module Ractorbench
  module Harness
    module RubyBench
      # What a benchmark hands ruby-bench's run_benchmark: its block, the
      # ractor_args each call gets a copy of, and its iterations hint.
      Captured = Struct.new(:block, :args, :hint)

      # How one round goes: W workers, each running the block `blocks` times
      # when measured, after `warmup` untimed rounds of the same; whose GC a
      # worker reads (WorkerGC). Plain values, so a ractor receives a copy.
      Plan = Struct.new(:workers, :blocks, :warmup, :gc_scope) do
        def without_warmup = self.class.new(workers, blocks, 0, gc_scope)
      end

      # One worker's part of a round, wherever it runs (main, a thread, a
      # ractor, a forked process). Untimed (`prepare`): its warm-up blocks,
      # then a copy of ractor_args for each measured block. Timed (`measure`):
      # the measured blocks, each called with W (ruby-bench passes the ractor
      # count, by which its Ractor-only benchmarks split their work), their
      # values digested, what it cost. Every failure is kept, never raised: a
      # worker that fails must still answer, or the run would hang.
      class Worker
        # What a block may raise that ends this worker's part, not the run's process.
        FAILURES = [ScriptError, StandardError, SystemStackError, NoMemoryError].freeze

        def initialize(captured, index, plan)
          @captured = captured
          @index = index
          @plan = plan
          @warm = []
        end

        attr_reader :error

        def prepare
          @warm = Array.new(@plan.warmup * @plan.blocks) { ValueDigest.of(call(Worker.copy(@captured.args))).first }
          @args = Array.new(@plan.blocks) { Worker.copy(@captured.args) }
        rescue *FAILURES => e
          @error = Worker.failure(e)
        end

        # The report (plain data): index, warm-up digests, [digest, note] of
        # each measured block, GC [count, ms] where it is the worker's own,
        # RunCost's worker figures, and the error that stopped it, if any.
        def measure(forked: false)
          return report unless @args && !@error

          mark = RunCost.worker_start
          gc = WorkerGC.read(@plan.gc_scope)
          values = @args.map { |args| call(args) }
          gc = WorkerGC.between(gc, WorkerGC.read(@plan.gc_scope))
          report(digests: values.map { |v| ValueDigest.of(v) }, gc: gc, cost: RunCost.worker_finish(mark, forked: forked))
        rescue *FAILURES => e
          @error = Worker.failure(e)
          report
        end

        # [:unsupported, reason, scope] or [:error, what and where].
        def self.failure(error)
          refusal = Refusal.of(error)
          return [:unsupported, *refusal] if refusal

          where = Array(error.backtrace).first
          [:error, "#{error.class}: #{error.message.lines.first.to_s.strip}#{" (at #{where})" if where}"]
        end

        # Each call gets its own ractor_args to change as it likes, as under
        # ruby-bench; what is shareable (deeply frozen) cannot change, so it is
        # passed as it is, as ruby-bench's ractors receive it. keep_shareable:
        # false is ruby-bench's own ractor_deep_dup, for benchmarks that call it.
        def self.copy(value, keep_shareable: true)
          return value if keep_shareable && shareable?(value)

          case value
          when Array then value.map { |v| copy(v, keep_shareable: keep_shareable) }
          when Hash then value.each_with_object({}) { |(k, v), h| h[copy(k, keep_shareable: keep_shareable)] = copy(v, keep_shareable: keep_shareable) }
          else value.dup
          end
        end

        def self.shareable?(value)
          RactorCompat.available? && ::Ractor.shareable?(value)
        end

        private

        def call(args) = @captured.block.call(@plan.workers, *args)

        def report(digests: [], gc: nil, cost: nil)
          {index: @index, warm: @warm, digests: digests, gc: gc, cost: cost, error: @error}
        end
      end
    end
  end
end
