# frozen_string_literal: true

module Ractorbench
  module Harness
    # Memory of the current process from /proc (Linux); nil elsewhere.
    module Memory
      module_function

      # Peak resident set size in KiB (VmHWM): the high-water mark of this
      # process alone, unlike getrusage(RUSAGE_CHILDREN) in the driver.
      def peak_rss_kb
        status_field("VmHWM")
      end

      # Proportional set size in KiB: shared pages divided among sharers, so
      # forked workers' copy-on-write pages are not counted twice.
      def pss_kb
        File.foreach("/proc/self/smaps_rollup") do |line|
          return line.split[1].to_i if line.start_with?("Pss:")
        end
        nil
      rescue SystemCallError, IOError
        nil
      end

      def status_field(field)
        File.foreach("/proc/self/status") do |line|
          return line.split[1].to_i if line.start_with?("#{field}:")
        end
        nil
      rescue SystemCallError, IOError
        nil
      end
    end
  end
end
