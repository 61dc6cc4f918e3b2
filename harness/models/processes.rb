# frozen_string_literal: true

require_relative "../ractorbench/harness"

module Ractorbench
  module Models
    # W forked workers, each with a pair of pipes; the supervisor hands the
    # next job to whichever worker answers first (IO.select), like the seed's
    # fork_test, but with Marshal so any workload's jobs and results travel.
    module Processes
      extend Harness::Model
      model "processes", "W forked workers fed by a supervisor over pipes"

      def self.unsupported_reason
        "this Ruby cannot fork" unless Process.respond_to?(:fork)
      end

      def self.run(workload, jobs, workers)
        pool = Array.new([workers, 1].max) { Worker.start(workload) }
        pending = jobs.dup
        results = []
        busy = {}
        pool.each { |w| busy[w.reader] = w if w.give(pending.shift) }
        until busy.empty?
          IO.select(busy.keys)[0].each do |io|
            worker = busy.delete(io)
            results << Harness::ResultMessage.unwrap(worker.receive)
            busy[io] = worker if worker.give(pending.shift)
          end
        end
        # Every process measures itself while all are still alive: PSS
        # divides a shared page among the processes mapping it at that moment.
        stats = pool.map(&:memory)
        supervisor_pss = Harness::Memory.pss_kb
        pool.each(&:finish)
        record_memory(stats, supervisor_pss)
        results
      end

      def self.record_memory(stats, supervisor_pss)
        extra_metrics["workers"] = stats.size
        extra_metrics["workers_peak_rss_kb"] = stats.sum { |s| s[:peak_rss_kb].to_i }
        extra_metrics["workers_pss_kb"] = stats.sum { |s| s[:pss_kb].to_i }
        extra_metrics["supervisor_pss_kb"] = supervisor_pss
      end

      # One forked worker and the supervisor's ends of its two pipes.
      class Worker
        attr_reader :reader

        def self.start(workload)
          jobs_r, jobs_w = IO.pipe
          results_r, results_w = IO.pipe
          pid = fork do
            Harness.after_fork
            jobs_w.close
            results_r.close
            serve(workload, jobs_r, results_w)
          end
          jobs_r.close
          results_w.close
          new(pid, jobs_w, results_r)
        end

        # In the worker: answer each job until told to stop, then report
        # this process's own memory, which only it can read.
        def self.serve(workload, input, output)
          while (job = Wire.read(input))
            Wire.write(output, Harness::ResultMessage.call { workload.work(job) })
          end
          Wire.write(output, {peak_rss_kb: Harness::Memory.peak_rss_kb, pss_kb: Harness::Memory.pss_kb})
          # Stay alive (pages shared) until told to go. A second message, not
          # EOF: later workers hold copies of this pipe's write end.
          Wire.read(input)
          exit!(0)
        end

        def initialize(pid, writer, reader)
          @pid = pid
          @writer = writer
          @reader = reader
        end

        # Sends a job; false when there are none left.
        def give(job)
          return false if job.nil?

          Wire.write(@writer, job)
          true
        end

        def receive
          Wire.read(@reader) or raise EOFError, "worker #{@pid} exited before answering"
        end

        # Tells the worker there are no more jobs; it answers with its memory.
        def memory
          Wire.write(@writer, nil)
          receive
        end

        def finish
          Wire.write(@writer, nil)
          @writer.close
          @reader.close
          _, status = Process.wait2(@pid)
          raise "worker #{@pid} failed: #{status.inspect}" unless status.success?
        end
      end

      # Length-prefixed Marshal frames over a pipe.
      module Wire
        def self.write(io, object)
          data = Marshal.dump(object)
          io.write([data.bytesize].pack("N"), data)
        end

        def self.read(io)
          header = io.read(4)
          return nil unless header&.bytesize == 4

          Marshal.load(io.read(header.unpack1("N"))) # rubocop:disable Security/MarshalLoad -- our own worker's frames
        end
      end
    end
  end
end
