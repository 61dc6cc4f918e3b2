# frozen_string_literal: true

require_relative "ractor_check"
require_relative "result_digest"
require_relative "user_code"

module Ractorbench
  module Harness
    module Try
      # Runs the user's work in threads side by side, released together, in a
      # process whose main thread has loaded the file and built the items but
      # never called work: first-use initialisation (`@table ||= build`, a
      # cache filled in steps) then races as it would in a sweep's threads
      # run. Each item's result is compared with the one computed afterwards,
      # one item at a time; a failure that also happens serially is the
      # contract's (the serial check reports it).
      class ThreadsPass
        THREADS = 4

        def initialize(target, items, file, budget:, threads: THREADS)
          @target = target
          @items = items
          @file = file
          @budget = budget
          @count = [threads, items.size].min
        end

        # Where a thread that has not finished is now (for a check stopped by
        # the time limit).
        def where
          Array(@threads).each do |thread|
            frame = thread.alive? && UserCode.frame(thread.backtrace, @file)
            return [frame, false] if frame
          end
          [nil, false]
        end

        # {"problems" => [facts...], "checked" => n, "threads" => count}
        def call
          outcomes = run_side_by_side
          problems = {}
          outcomes.sort_by(&:first).each do |index, (tag, value)|
            serial = serial_result(@items[index])
            next if serial == :raised

            problem = (tag == :raised) ? raised(index, value) : differs(index, serial, value)
            next unless problem

            key = [problem["kind"], problem["where"]]
            problems[key] ? problems[key]["items"] = problems[key].fetch("items", 1) + 1 : problems[key] = problem
          end
          {"problems" => problems.values, "checked" => outcomes.size, "threads" => @count}
        end

        private

        def run_side_by_side
          gate = Queue.new
          lock = Mutex.new
          outcomes = {}
          taken = 0
          started = nil
          @threads = Array.new(@count) do
            Thread.new do
              Thread.current.report_on_exception = false
              gate.pop
              loop do
                index = lock.synchronize do
                  over = taken >= @count && now - started > @budget
                  (taken < @items.size && !over) ? (taken += 1) - 1 : nil
                end
                break unless index

                outcome = begin
                  [:ok, @target.work(@items[index])]
                rescue Exception => e # rubocop:disable Lint/RescueException -- report every way the work fails
                  [:raised, RactorCheck.exception_facts(e)]
                end
                lock.synchronize { outcomes[index] = outcome }
              end
            end
          end
          started = now
          @count.times { gate << true }
          @threads.each(&:join)
          outcomes
        end

        def raised(index, error)
          {"stage" => "threads", "kind" => "raised", "index" => index, "error" => error,
           "threads" => @count}.merge(RactorCheck.facts(error, @target, @file))
        end

        def differs(index, serial, value)
          return nil if ResultDigest.fingerprint(serial) == ResultDigest.fingerprint(value)

          {"stage" => "threads", "kind" => "differs", "index" => index, "threads" => @count,
           "serial" => RactorCheck.preview(serial), "in_threads" => RactorCheck.preview(value)}
        end

        def serial_result(item)
          @target.work(item)
        rescue Exception # rubocop:disable Lint/RescueException -- any failure: the serial check will say what
          :raised
        end

        def now = Process.clock_gettime(Process::CLOCK_MONOTONIC)
      end
    end
  end
end
