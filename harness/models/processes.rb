# frozen_string_literal: true

require_relative "../ractorbench/harness"

module Ractorbench
  module Models
    # W forked workers, each with a pair of pipes; the supervisor hands the
    # next job to whichever worker answers first (IO.select), like the seed's
    # fork_test, but with Marshal so any workload's jobs and results travel.
    # Several small jobs wait in each worker's pipe (as the seed's requests
    # queued in its pipe buffer) and both ends read whole buffers of frames,
    # so neither side wakes up once per message when messages are short.
    module Processes
      extend Harness::Model
      model "processes", "W forked workers fed by a supervisor over pipes"

      def self.unsupported_reason
        "this Ruby cannot fork" unless Process.respond_to?(:fork)
      end

      # A job this long dwarfs the wake-up a message costs: such jobs go one at
      # a time, so that none waits in one worker's pipe while another is idle.
      COARSE_JOB = 0.001

      def self.run(workload, jobs, workers)
        coarse = workload.respond_to?(:job_seconds) && workload.job_seconds.to_f >= COARSE_JOB
        depth = coarse ? 1 : Worker::DEPTH
        pool = Array.new([workers, 1].max) { Worker.start(workload, depth) }
        pending = jobs.dup
        results = []
        pool.each { |w| w.top_up(pending) }
        until (busy = pool.select(&:busy?)).empty?
          ready = IO.select(busy.map(&:reader))[0]
          busy.each do |worker|
            next unless ready.include?(worker.reader)

            worker.receive_available.each { |message| results << Harness::ResultMessage.unwrap(message) }
            worker.top_up(pending)
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
        # Jobs in flight per worker. Only small frames are queued ahead: the
        # supervisor must never block writing into a full pipe (64 KiB) while
        # its worker blocks writing a result the supervisor is not reading.
        DEPTH = 16
        SMALL_FRAME = 2048

        def self.start(workload, depth = DEPTH)
          jobs_r, jobs_w = IO.pipe
          results_r, results_w = IO.pipe
          pid = fork do
            Harness.after_fork
            jobs_w.close
            results_r.close
            serve(workload, Wire::Reader.new(jobs_r), results_w)
          end
          jobs_r.close
          results_w.close
          new(pid, jobs_w, results_r, depth)
        end

        # In the worker: answer each job until told to stop, then report
        # this process's own memory, which only it can read.
        def self.serve(workload, input, output)
          replies = "".b
          while (job = input.read)
            replies << Wire.frame(Harness::ResultMessage.call { workload.work(job) })
            # Answer in one write whatever is done before waiting for more.
            output.write(replies.slice!(0, replies.bytesize)) unless input.frame_buffered?
          end
          output.write(replies) unless replies.empty?
          Wire.write(output, {peak_rss_kb: Harness::Memory.peak_rss_kb, pss_kb: Harness::Memory.pss_kb})
          # Stay alive (pages shared) until told to go. A second message, not
          # EOF: later workers hold copies of this pipe's write end.
          input.read
          exit!(0)
        end

        def initialize(pid, writer, reader, depth = DEPTH)
          @pid = pid
          @writer = writer
          @stream = Wire::Reader.new(reader)
          @in_flight = 0
          @depth = depth
        end

        def reader = @stream.io

        def busy? = @in_flight.positive?

        # Sends jobs until this worker has its fill or none are left.
        def top_up(pending)
          frames = "".b
          while @in_flight < @depth && !pending.empty?
            frame = Wire.frame(pending.shift)
            @depth = 1 if frame.bytesize > SMALL_FRAME
            frames << frame
            @in_flight += 1
          end
          @writer.write(frames) unless frames.empty?
        end

        # Every result already in the pipe (at least one: the pipe was ready).
        def receive_available
          messages = @stream.available
          raise EOFError, "worker #{@pid} exited before answering" if messages.nil?

          @in_flight -= messages.size
          messages
        end

        # Tells the worker there are no more jobs; it answers with its memory.
        def memory
          Wire.write(@writer, nil)
          @stream.read or raise EOFError, "worker #{@pid} exited before reporting its memory"
        end

        def finish
          Wire.write(@writer, nil)
          @writer.close
          reader.close
          _, status = Process.wait2(@pid)
          raise "worker #{@pid} failed: #{status.inspect}" unless status.success?
        end
      end

      # Length-prefixed Marshal frames over a pipe.
      module Wire
        def self.frame(object)
          data = Marshal.dump(object)
          [data.bytesize].pack("N") << data
        end

        def self.write(io, object)
          io.write(frame(object))
        end

        # Reads frames through a buffer, so one read(2) can bring many.
        class Reader
          CHUNK = 65_536

          attr_reader :io

          def initialize(io)
            @io = io
            @buffer = "".b
          end

          # The next frame's object, blocking; nil at end of file.
          def read
            loop do
              frame = next_frame
              return frame.first if frame

              chunk = @io.read_nonblock(CHUNK, exception: false)
              return nil if chunk.nil?

              (chunk == :wait_readable) ? IO.select([@io]) : @buffer << chunk
            end
          end

          def frame_buffered?
            @buffer.bytesize >= 4 && @buffer.bytesize >= 4 + @buffer.unpack1("N")
          end

          # Every complete frame now readable without blocking; nil at end
          # of file with nothing left.
          def available
            chunk = @io.read_nonblock(CHUNK, exception: false)
            return nil if chunk.nil? && @buffer.empty?

            @buffer << chunk if chunk.is_a?(String)
            frames = []
            while (frame = next_frame)
              frames << frame.first
            end
            (frames.empty? && chunk.nil?) ? nil : frames
          end

          private

          # [object] for a whole frame at the buffer's head, else nil.
          def next_frame
            return nil if @buffer.bytesize < 4

            size = @buffer.unpack1("N")
            return nil if @buffer.bytesize < 4 + size

            data = @buffer.byteslice(4, size)
            @buffer = @buffer.byteslice(4 + size, @buffer.bytesize)
            [Marshal.load(data)] # rubocop:disable Security/MarshalLoad -- our own worker's frames
          end
        end
      end
    end
  end
end
