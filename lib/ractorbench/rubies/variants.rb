# frozen_string_literal: true

require_relative "settings"

module Ractorbench
  module Rubies
    # Interpreter settings as dimensions of the matrix: --yjit, --zjit, --mn
    # and --max-cpu (one entry each in Settings::ALL) turn each Ruby under
    # test into one target per combination (ruby, ruby+yjit, ruby+mn+cpu1,
    # ...). A suite may ask for a mode itself (Plan::Suite.define(..., yjit:
    # "both")); the command line wins.
    class Variants
      MODES = {"off" => [false], "on" => [true], "both" => [false, true]}.freeze

      def self.add_options(parser, variants)
        Settings::ALL.each do |setting|
          modes = setting.option.end_with?("MODE") ? [MODES.keys] : []
          parser.on(setting.option, *modes, setting.help) { |given| variants.choose(setting.key, setting.parse(given)) }
        end
      end

      def initialize
        @chosen = {}
      end

      def choose(key, given)
        @chosen[key] = given
      end

      # No setting chosen on the command line.
      def empty? = @chosen.empty?

      def expand(targets, suite = nil)
        dimensions = Settings::ALL.map do |setting|
          given = @chosen[setting.key] || suite&.options&.fetch(setting.key.to_sym, nil)
          given ? setting.values(given).map { |v| [setting, v] } : [[setting, nil]]
        end
        targets.flat_map do |target|
          dimensions.first.product(*dimensions.drop(1)).map { |combination| variant(target, combination) }
        end
      end

      private

      def variant(target, combination)
        chosen = combination.select { |_, value| value }
        return target if chosen.empty?

        flags = []
        env = {}
        chosen.each do |setting, value|
          f, e = setting.request(value)
          flags.concat(f)
          env.merge!(e)
        end
        target.variant(chosen.map { |setting, value| "+#{setting.suffix_for(value)}" }.join, flags: flags, env: env)
      end
    end
  end
end
