# frozen_string_literal: true

module Ractorbench
  module Harness
    # A profiled run (ractorbench run --profile) samples the timed work only,
    # not starting Ruby, loading or checking results, so that its profile and
    # serial's cover the same span. The spec says how:
    #
    #   perf:    perf record started with its events off and a control FIFO
    #            (--control fifo:CTL,ACK -D -1); "enable" before the work and
    #            "disable" after it, each acknowledged, so no sample of the
    #            work is lost and none of ours is taken;
    #   vernier: the gem, loaded here only when asked for (its sampler runs
    #            in this process), started and stopped around the work.
    #
    # A run without "profile" in its spec gets nil and runs as it always did.
    class ProfileHook
      def self.for(spec)
        options = spec && spec["profile"]
        return nil unless options

        (options["tool"] == "vernier") ? Vernier.new(options) : Perf.new(options)
      end

      # perf record's control FIFOs.
      class Perf
        def initialize(options)
          @control = options.fetch("control")
          @ack = options.fetch("ack")
        end

        def start = command("enable")

        def stop = command("disable")

        private

        # perf opened both FIFOs read-write before starting this process,
        # so neither open blocks; the ack says the command took effect.
        def command(word)
          File.write(@control, "#{word}\n")
          File.open(@ack, "r") { |f| f.gets }
        end
      end

      # The vernier gem, in the Ruby under test.
      class Vernier
        def initialize(options)
          @out = options.fetch("out")
          @interval = options["interval"]
        end

        def start
          require "vernier"
          options = {out: @out}
          options[:interval] = @interval if @interval
          ::Vernier.start_profile(**options)
        end

        def stop = ::Vernier.stop_profile
      end
    end
  end
end
