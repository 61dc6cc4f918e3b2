# frozen_string_literal: true

require_relative "crew"
require_relative "../../../harness"
require_relative "../../memory"
require_relative "../../wire"

module Ractorbench
  module Harness
    module RubyBench
      module Crews
        # processes: W forked workers, each warmed up, waiting on a pipe for
        # a byte to start; the clock runs from the first byte until every
        # worker has sent its report and exited (as the processes model
        # reaps its workers inside the clock: their CPU counts).
        class Processes < Crew
          KIND = :process

          def variant = "processes: W forked workers, one block each"

          def start
            raise Unsupported, "this Ruby cannot fork" unless Process.respond_to?(:fork)

            @workers = Array.new(@plan.workers) { |i| Forked.new(@captured, i, @plan) }
            @workers.map(&:ready)
          end

          def finish
            @workers.each(&:go)
            reports = @workers.map(&:report)
            # Each process measured itself while all were alive (PSS shares
            # a page among the processes mapping it at that moment).
            @metrics = {"workers_reported" => reports.size, "workers_peak_rss_kb" => reports.sum { |r| r[:peak_rss_kb].to_i },
                        "workers_pss_kb" => reports.sum { |r| r[:pss_kb].to_i }, "supervisor_pss_kb" => Memory.pss_kb}
            @workers.each(&:finish)
            reports
          end

          def abort
            @workers&.each(&:stop)
          end

          def metrics = @metrics || {}

          # One forked worker and the supervisor's ends of its two pipes.
          class Forked
            def initialize(captured, index, plan)
              @index = index
              replies, @reply_end = IO.pipe
              @start_end, starts = IO.pipe
              @pid = fork do
                Harness.after_fork
                replies.close
                starts.close
                serve(Worker.new(captured, index, plan))
              rescue Exception => e # rubocop:disable Lint/RescueException -- a forked worker must never run on as the run's process
                warn("ruby-bench worker #{index}: #{e.class}: #{e.message}")
                exit!(1)
              end
              @reply_end.close
              @start_end.close
              @replies = Wire::Reader.new(replies)
              @starts = starts
            end

            # nil, or why its preparation failed.
            def ready = reply(:ready)

            def go = @starts.write("G")

            def report = reply(:report)

            # Later workers hold copies of these pipes: a byte, not EOF, says go.
            def finish
              @starts.write("X")
              @starts.close
              _, status = Process.wait2(@pid)
              raise "ruby-bench worker #{@index} (pid #{@pid}) failed: #{status.inspect}" unless status.success?
            end

            def stop
              @starts.write("S")
              @starts.close
              Process.wait2(@pid)
            end

            private

            # In the worker: prepare, wait for the start, measure, report,
            # then wait to be told to go, so every sibling's PSS is read alive.
            def serve(worker)
              worker.prepare
              Wire.write(@reply_end, [:ready, worker.error])
              exit!(0) unless @start_end.read(1) == "G"

              report = worker.measure(forked: true)
              Wire.write(@reply_end, [:report, report.merge(peak_rss_kb: Memory.peak_rss_kb, pss_kb: Memory.pss_kb)])
              @start_end.read(1)
              exit!(0)
            end

            def reply(kind)
              tag, payload = @replies.read
              raise "ruby-bench worker #{@index} (pid #{@pid}) ended before its #{kind}" unless tag == kind

              payload
            end
          end
        end
      end
    end
  end
end
