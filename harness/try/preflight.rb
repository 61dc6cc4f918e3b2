# frozen_string_literal: true

# `ruby harness/try/preflight.rb`, its spec on stdin: the quick check `ractorbench try`
# runs before any measurement, in a child of the Ruby under test. It first
# runs the user's work where a sweep first meets it (in a ractor, in threads
# side by side: see FirstTouch), then loads the file itself, checks the
# contract, times a few items serially and checks Marshal for processes, so
# that bad input and work a model cannot run are found in seconds, not after
# a sweep.
#
# Writes records on the result channel (Harness::Channel): {"stage": ...} as
# it goes (so the driver knows where a run that never finished was stuck),
# then one final record.
require_relative "../ractorbench/harness/program_start"
require_relative "../ractorbench/harness"
require_relative "../ractorbench/harness/channel"
require_relative "target"
require_relative "own_code"
require_relative "result_digest"
require_relative "marshal_check"
require_relative "ractor_check"
require_relative "first_touch"
require_relative "lasting_state"
require_relative "fiber_probe"

module Ractorbench
  module Harness
    module Try
      # The checks, in order; each failure ends the check with a record.
      class Preflight
        # After the driver's time limit, how long a part's process gets to
        # say where it was.
        CHILD_GRACE = 1.0

        def initialize(spec)
          @file = File.expand_path(spec.fetch("file"))
          @module = spec["module"]
          @sample = Integer(spec.fetch("sample"))
          @budget = Float(spec.fetch("budget"))
          @sources = spec["sources"] || {}
          @ractor_only = spec["ractor_only"] ? true : false
        end

        def call
          RactorCompat.silence_experimental_warning
          trap_timeout
          @first_touch = FirstTouch.new(file: @file, module_name: @module, sample: @sample, budget: @budget,
            stage: method(:stage), sources: @sources, ractor_only: @ractor_only)
          touched = @first_touch.call
          return finish(touched) if touched["status"]
          return finish({"status" => "ok", "file" => @file, **first_touch_facts(touched)}) if @ractor_only

          target = stage("load") { Target.load(@file, @module) }
          items = stage("items") { Target.items(target, @sample) }
          state = LastingState.new(target, @file)
          before = state.snapshot
          timing = stage("work") { time_work(target, items) }
          results = timing.delete(:results)
          stage("repeat") { check_repeatable(target, items.first, results.first) }
          lasting = stage("state") { state.changes(before) }
          fibers = stage("fibers") { FiberProbe.call(target, items) } if timing["seconds_per_item"] <= @budget
          marshal = stage("marshal") { MarshalCheck.call(results) }
          finish(timing.merge(
            "status" => "ok", "file" => @file, "module" => OwnCode.name_of(target), "work_location" => location(target.method(:work)),
            "items_location" => target.respond_to?(:items) ? location(target.method(:items)) : nil,
            "marshal" => marshal, "result_bytes" => (result_bytes(results) unless marshal), **first_touch_facts(touched),
            "lasting_state" => (lasting unless lasting.empty?), "fiber_probe" => fibers,
            "ractor_available" => RactorCompat.available?, "fork_available" => Process.respond_to?(:fork),
            "shareable_proc" => RactorCompat.available? && ::Ractor.respond_to?(:shareable_proc)
          ))
        rescue ContractError => e
          finish("status" => "bad_input", "problem" => e.message, "location" => e.location || @file)
        rescue Exception => e # rubocop:disable Lint/RescueException -- exit, NotImplementedError...: report, never a trace
          frame = UserCode.frame(e.backtrace, @file)
          finish("status" => "bad_input", "problem" => "#{@stage} stopped with #{ErrorText.line(e)}",
            "location" => frame&.to_s || @file)
        end

        private

        def stage(name)
          @stage = name
          emit("stage" => name)
          yield
        end

        # Times `work` on the sample, stopping once the budget is spent (but
        # after one item at least), and notes how much of the time was CPU.
        # Time spent ready to run while other programs held the CPUs (the
        # run-queue delay Linux keeps in schedstat) is not waiting of the
        # work's own: a busy machine must not make CPU-bound work look
        # IO-bound.
        def time_work(target, items)
          results = []
          walls = []
          cpu = 0.0
          delay0 = run_queue_delay
          items.each_with_index do |item, index|
            break if index.positive? && walls.sum > @budget

            wall0 = now
            cpu0 = cpu_now
            queued0 = queued_now
            results << call_work(target, item, index)
            walls << [now - wall0 - (queued_now - queued0), 0.0].max
            cpu += cpu_now - cpu0
          end
          delay = run_queue_delay
          delayed = (delay && delay0) ? delay - delay0 : 0.0
          own = walls.sum - delayed
          steady = (walls.size > 2) ? walls.drop(1) : walls
          {:results => results, "sampled" => walls.size, "seconds_per_item" => median(steady),
           "cpu_share" => own.positive? ? [cpu / own, 1.0].min : 1.0}
        end

        # The median size of a result in Marshal's form: how much a model
        # that copies each result (a ractor's message, a pipe) has to move.
        def result_bytes(results)
          median(results.map { |r| Marshal.dump(r).bytesize }).to_i
        end

        # Seconds this thread has spent runnable but not running, or nil
        # without /proc (Linux schedstat: on-CPU ns, run-queue wait ns, slices).
        def run_queue_delay
          Integer(File.read("/proc/thread-self/schedstat").split[1]) / 1e9
        rescue SystemCallError, ArgumentError, TypeError
          nil
        end

        def call_work(target, item, index)
          target.work(item)
        rescue => e
          frame = UserCode.frame(e.backtrace, @file)
          raise ContractError.new("#{target}.work(item #{index}) raised #{ErrorText.line(e)}",
            frame&.to_s || location(target.method(:work)))
        end

        # Every model's results are compared with the serial ones, which only
        # means something if the same item always gives the same result.
        def check_repeatable(target, item, first)
          again = call_work(target, item, 0)
          return if ResultDigest.fingerprint(first) == ResultDigest.fingerprint(again)

          raise ContractError.new("#{OwnCode.name_of(target)}.work(item 0) returned #{RactorCheck.preview(first)} and then " \
            "#{RactorCheck.preview(again)}: work must return the same result for the same item (ractorbench compares " \
            "every model's results); leave times, random numbers and object ids out of the result",
            location(target.method(:work)))
        end

        # Every problem the ractor part and the threads part found, the fix
        # the ractor part's remedies add up to, and how far each part got.
        def first_touch_facts(touched)
          ractor = touched["ractor"]
          threads = touched["threads"] || {}
          facts = {"threads_problems" => threads["problems"], "threads_checked" => threads["checked"],
                   "threads_count" => threads["threads"]}
          if ractor
            facts.merge!("ractor_problems" => ractor["problems"], "ractor_checked" => ractor["checked"],
              "ractor_stopped_at" => ractor["stopped_at"], "ractor_fix" => touched["fix"])
          end
          facts
        end

        # On SIGUSR1 (the driver's time limit) say where the check was: the
        # check's own main thread, or, in a part's process, where its pass
        # last saw the work. The check's process passes the signal on to a
        # part's process and gives it a moment to answer (the last record
        # written wins).
        def trap_timeout
          Signal.trap("USR1") do
            child = @first_touch&.child
            if child
              finish("status" => "timeout", "stage" => @stage)
              signal_child(child)
            else
              finish(timeout_record)
            end
            exit!(0)
          end
        end

        def timeout_record
          pass = @first_touch&.pass if FirstTouch::PARTS.include?(@stage)
          frame, finishes = pass ? pass.where : [UserCode.frame(caller, @file), false]
          stage = pass ? "work" : @stage
          {"status" => "timeout", "stage" => stage, "inside" => (@stage if stage != @stage), "location" => frame&.to_s,
           "source" => frame && UserCode.source_line(frame.path, frame.line), "finishes_serially" => finishes || nil}
        end

        def signal_child(pid)
          Process.kill("USR1", pid)
          deadline = now + CHILD_GRACE
          sleep(0.02) until Process.waitpid(pid, Process::WNOHANG) || now > deadline
        rescue SystemCallError
          nil
        end

        def location(method)
          file, line = method.source_location
          file && "#{file}:#{line}"
        end

        def median(values)
          sorted = values.sort
          return 0.0 if sorted.empty?

          half = sorted.size / 2
          sorted.size.odd? ? sorted[half] : (sorted[half - 1] + sorted[half]) / 2.0
        end

        def now = Process.clock_gettime(Process::CLOCK_MONOTONIC)

        def cpu_now = Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID)

        # Seconds this thread has waited on a run queue (Linux; else 0).
        def queued_now
          File.read("/proc/thread-self/schedstat").split[1].to_i / 1e9
        rescue SystemCallError, IOError
          0.0
        end

        def finish(record)
          emit(record)
          record
        end

        def emit(record)
          Channel.write(record.compact)
        end
      end
    end
  end
end

Ractorbench::Harness::Channel.io
Ractorbench::Harness::Try::Preflight.new(Ractorbench::Harness::Channel.spec).call
