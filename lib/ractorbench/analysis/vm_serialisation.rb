# frozen_string_literal: true

module Ractorbench
  class Analysis
    # What the ractor-scaling probe (harness/scaling_probe.rb, run once per
    # Ruby and kept in the header) says about each Ruby: do W ractors running
    # a loop that shares and allocates nothing cost more CPU per iteration
    # than one? If so, the Ruby serialises ractors inside its VM and no ractor
    # model can scale on it, whatever the workload.
    module Analysis::VmSerialisation
      # W ractors costing this much more CPU per iteration than one.
      THRESHOLD = 1.5
      # W ractors finishing less than this fraction of W times faster than one
      # did not run side by side: without that, CPU per iteration says nothing.
      PARALLEL = 0.75

      Finding = Struct.new(:ruby, :description, :workers, :one_ns, :many_ns, :ratio, :known_cause, keyword_init: true)

      module_function

      # One Finding per Ruby of the header (Store::Header) whose probe crossed THRESHOLD.
      def for(header)
        header.rubies.filter_map do |ruby|
          scaling = ruby.info.ractor_scaling
          next unless scaling.measured? && scaling.cpu_ratio >= THRESHOLD

          Finding.new(ruby: ruby.name, description: ruby.info.description, workers: scaling.workers,
            one_ns: scaling.cpu_ns_per_iteration_1, many_ns: scaling.cpu_ns_per_iteration_w,
            ratio: scaling.cpu_ratio, known_cause: known_cause?(ruby.info.features))
        end
      end

      # Ruby 3.3 and 3.4 built with YJIT or RJIT increment one global counter
      # (rb_vm_insns_count) on every interpreted instruction; Ractor::Port came
      # with 3.5/4.0, which no longer have that counter outside stats builds.
      def known_cause?(features)
        ((features.yjit || features.rjit) && !features.ractor_port) ? true : false
      end

      def names(header) = self.for(header).map(&:ruby)

      # "name: why" of each Ruby whose probe could not tell: its W ractors
      # never ran side by side (other programs on the cores, most often) and so did not
      # meet in the VM either.
      def inconclusive(header)
        header.rubies.filter_map do |ruby|
          s = ruby.info.ractor_scaling
          next unless s.measured? && s.wall_speedup.is_a?(Numeric)
          next if s.cpu_ratio >= THRESHOLD || s.wall_speedup >= PARALLEL * s.workers.to_i

          "#{ruby.name}: its #{s.workers} ractors finished only #{format("%.2f×", s.wall_speedup)} faster than one, " \
            "so they hardly ran side by side (other programs on the cores, most often) and whether this Ruby serialises ractors " \
            "is unknown; run again on a quiet machine"
        end
      end

      def sentence(finding)
        text = "#{finding.ruby}: #{finding.workers} ractors running a loop that shares and allocates nothing cost " \
          "#{format("%.2f×", finding.ratio)} the CPU per iteration of one (#{format("%.1f", finding.many_ns)} vs " \
          "#{format("%.1f", finding.one_ns)} ns, ractor-scaling probe): this Ruby serialises ractors inside its VM even " \
          "for code that shares nothing, so no ractor model can scale on it"
        return text + "." unless finding.known_cause

        text + ". The known cause: Ruby 3.3 and 3.4 built with YJIT or RJIT (as official builds are) count every " \
          "interpreted instruction in one global counter (rb_vm_insns_count) that every core writes, even with the JIT " \
          "off; upstream made it thread-local and then statistics-only in January 2025 (ruby/ruby#12549, #12670), and " \
          "Ruby 4.0 does not have it: upgrade, run with --yjit (code YJIT has compiled does not touch the counter: " \
          "--yjit both shows the difference), or build this Ruby without YJIT and RJIT."
      end
    end
  end
end
