# frozen_string_literal: true

require_relative "../plan/number_list"
require_relative "interpreter_settings"

module Ractorbench
  module Rubies
    # Interpreter settings as dimensions of the matrix: --yjit, --mn and
    # --max-cpu turn each Ruby under test into one target per combination
    # (named ruby, ruby+yjit, ruby+mn+cpu1, ...). A suite may ask for a mode
    # itself (Plan::Suite.define(..., yjit: "both")); the command line wins.
    class Variants
      MODES = {"off" => [false], "on" => [true], "both" => [false, true]}.freeze

      attr_accessor :yjit, :mn, :max_cpu

      def self.add_options(parser, variants)
        parser.on("--yjit MODE", MODES.keys, "YJIT: on, off or both (each Ruby as given and with --yjit)") { |m| variants.yjit = m }
        parser.on("--mn MODE", MODES.keys, "M:N thread scheduler, RUBY_MN_THREADS=1 (Ruby >= 3.3): on, off or both") { |m| variants.mn = m }
        parser.on("--max-cpu LIST", "RUBY_MAX_CPU values, native threads of the M:N scheduler (Ruby >= 3.3), e.g. 1,8") do |l|
          variants.max_cpu = Plan::NumberList.positive_integers("--max-cpu", l)
        end
      end

      def expand(targets, suite = nil)
        yjit_modes = modes(yjit || suite&.options&.fetch(:yjit, nil))
        mn_modes = modes(mn || suite&.options&.fetch(:mn, nil))
        cpus = max_cpu || [nil]
        targets.flat_map do |target|
          yjit_modes.product(mn_modes, cpus).map { |y, m, cpu| variant(target, y, m, cpu) }
        end
      end

      private

      # nil: leave the Ruby as given.
      def modes(mode)
        mode ? MODES.fetch(mode.to_s) : [nil]
      end

      def variant(target, yjit, mn, cpu)
        return target if !yjit && !mn && cpu.nil?

        env = {}
        env["RUBY_MN_THREADS"] = "1" if mn
        env["RUBY_MAX_CPU"] = cpu.to_s if cpu
        suffix = [("yjit" if yjit), ("mn" if mn), ("cpu#{cpu}" if cpu)].compact.map { |s| "+#{s}" }.join
        target.variant(suffix, flags: yjit ? ["--yjit"] : [], env: env)
      end
    end
  end
end
