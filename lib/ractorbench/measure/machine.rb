# frozen_string_literal: true

require "etc"

module Ractorbench
  module Measure
    # What the results file records about the machine, and how many cores a
    # run can really use: the CPU affinity mask and a cgroup CPU quota can both
    # be smaller than the cores `nproc` sees (the seed's container anomaly).
    module Measure::Machine
      module_function

      def describe
        {
          "cpu_model" => cpu_model,
          "cores" => Etc.nprocessors,
          "usable_cores" => usable_cores,
          "affinity_cores" => affinity_cores,
          "cgroup_cpu_limit" => cgroup_cpu_limit,
          "load_average" => load_average,
          "memory_kb" => meminfo("MemTotal"),
          "os" => os,
          "hostname" => Etc.uname[:nodename],
          "scaling_governors" => scaling_governors
        }
      end

      # {governor => number of CPUs} from cpufreq; nil where the kernel does
      # not expose it (most VMs and containers). Anything but "performance"
      # lets the clock follow the load, which makes run times drift.
      def scaling_governors
        found = Dir.glob("/sys/devices/system/cpu/cpu[0-9]*/cpufreq/scaling_governor").filter_map { |f| read(f)&.strip }
        found.empty? ? nil : found.tally
      end

      def usable_cores
        [Etc.nprocessors, affinity_cores, cgroup_cpu_limit&.ceil].compact.min
      end

      def cpu_model
        line = read("/proc/cpuinfo")&.lines&.find { |l| l.start_with?("model name") }
        line ? line.split(":", 2).last.strip : RbConfig::CONFIG["host_cpu"]
      end

      def affinity_cores
        list = read("/proc/self/status")&.lines&.find { |l| l.start_with?("Cpus_allowed_list:") }
        return nil unless list

        list.split(":", 2).last.strip.split(",").sum do |range|
          first, last = range.split("-").map(&:to_i)
          last ? last - first + 1 : 1
        end
      end

      # CPUs' worth of time per period the cgroup allows (v2 cpu.max or v1
      # cfs quota); nil when unlimited.
      def cgroup_cpu_limit
        if (max = read("/sys/fs/cgroup/cpu.max"))
          quota, period = max.split
          return (quota == "max") ? nil : quota.to_f / period.to_f
        end
        quota = read("/sys/fs/cgroup/cpu/cpu.cfs_quota_us")&.to_i
        period = read("/sys/fs/cgroup/cpu/cpu.cfs_period_us")&.to_i
        (quota && period && quota.positive? && period.positive?) ? quota.to_f / period : nil
      end

      def load_average
        read("/proc/loadavg")&.split&.first(3)&.map(&:to_f)
      end

      def meminfo(field)
        line = read("/proc/meminfo")&.lines&.find { |l| l.start_with?("#{field}:") }
        line&.split&.at(1)&.to_i
      end

      def os
        uname = Etc.uname
        pretty = read("/etc/os-release")&.lines&.find { |l| l.start_with?("PRETTY_NAME=") }
        distro = pretty&.split("=", 2)&.last&.strip&.delete('"')
        [distro, "#{uname[:sysname]} #{uname[:release]} #{uname[:machine]}"].compact.join(", ")
      end

      def read(path)
        File.read(path)
      rescue SystemCallError, IOError
        nil
      end
    end
  end
end
