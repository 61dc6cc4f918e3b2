# frozen_string_literal: true

require_relative "../plan/number_list"

module Ractorbench
  module Rubies
    # The interpreter settings ractorbench can turn on for a Ruby under test,
    # one entry each: the option that asks for it, how the child is started
    # with it, and how the probe tells whether the Ruby honoured it. A new
    # setting is one entry here; Variants (the matrix) and
    # InterpreterSettings (the record, the label, "not supported") read the
    # table and name no setting themselves.
    module Settings
      # A JIT compiled into some Rubies: on or off, as the probe saw it.
      # Asked for by environment variable where a flag would make a Ruby
      # without it refuse to start, so such a Ruby becomes a "not supported"
      # row with the evidence instead of an error.
      class Jit
        attr_reader :key, :option, :help, :suffix

        # ask_with: :flag or :env, how a variant asks for it; either is
        # recognised in a --ruby command. always: recorded even when not
        # asked for (YJIT always was).
        def initialize(key:, name:, flag:, env:, ask_with:, always: false)
          @key = key
          @name = name
          @flag = flag
          @env = env
          @ask_with = ask_with
          @always = always
          @option = "--#{key} MODE"
          @help = "#{name}: on, off or both (each Ruby as given and with #{(ask_with == :flag) ? flag : "#{env}=1"})"
          @suffix = key
        end

        def values(mode) = Variants::MODES.fetch(mode)

        # How a variant asks for it: [flags, environment].
        def request(value)
          return [[], {}] unless value

          (@ask_with == :flag) ? [[@flag], {}] : [[], {@env => "1"}]
        end

        def requested?(argv, env)
          argv.any? { |a| a.start_with?(@flag) } || env[@env] == "1"
        end

        # features: the probe's (Rubies::Probe::Features).
        def state(features, argv, env)
          return nil unless @always || requested?(argv, env) || features.enabled?(key)

          features.enabled?(key) ? "on" : "off"
        end

        def label(state, _env) = "#{@name} #{state}"

        def suffix_for(_value) = suffix

        # An option's text as the user typed it.
        def parse(text) = text

        def problem(features, argv, env)
          return nil unless requested?(argv, env) && !features.enabled?(key)

          how = (argv & [@flag]).first || "#{@env}=1"
          why = features.has?(key) ? "RubyVM::#{@name}.enabled? is false" : "this Ruby was built without #{@name} (RubyVM::#{@name} is not defined)"
          "#{@name} was asked for (#{how}) but is not on: #{why}"
        end
      end

      # A setting of the M:N thread scheduler (Ruby >= 3.3), an environment
      # variable, verified by the probe's count of native threads.
      class Scheduler
        attr_reader :key, :option, :help, :suffix

        # check: which of the probe's M:N checks tells ("threads" or "ractors").
        def initialize(key:, env:, check:, option:, help:, suffix:, label:, refusal:)
          @key = key
          @env = env
          @check = check
          @option = option
          @help = help
          @suffix = suffix
          @label = label
          @refusal = refusal
        end

        # --mn MODE takes on/off/both; --max-cpu a list of values.
        def values(given) = given.is_a?(Array) ? given : Variants::MODES.fetch(given)

        def request(value)
          return [[], {}] unless value

          [[], {@env => (value == true) ? "1" : value.to_s}]
        end

        def suffix_for(value) = (value == true) ? suffix : "#{suffix}#{value}"

        def parse(text) = option.end_with?("LIST") ? Plan::NumberList.positive_integers(option.split.first, text) : text

        def state(features, _argv, env)
          return nil unless env[@env]

          case check(features).active
          when true then "on (verified)"
          when false then "not in effect"
          else "unverified"
          end
        end

        def label(state, env) = format(@label, value: env[@env], state: state)

        def problem(features, _argv, env)
          found = check(features)
          return nil unless env[@env] && found.active == false

          format(@refusal, value: env[@env], units: found.units, native: found.native_threads)
        end

        private

        def check(features) = features.mn_check(@check)
      end

      ALL = [
        Jit.new(key: "yjit", name: "YJIT", flag: "--yjit", env: "RUBY_YJIT_ENABLE", ask_with: :flag, always: true),
        # By variable: a Ruby without ZJIT refuses the --zjit flag outright.
        Jit.new(key: "zjit", name: "ZJIT", flag: "--zjit", env: "RUBY_ZJIT_ENABLE", ask_with: :env),
        Scheduler.new(key: "mn_threads", env: "RUBY_MN_THREADS", check: "threads", suffix: "mn",
          option: "--mn MODE", help: "M:N thread scheduler, RUBY_MN_THREADS=1 (Ruby >= 3.3): on, off or both",
          label: "M:N threads %<state>s",
          refusal: "the M:N scheduler was asked for (RUBY_MN_THREADS=%<value>s) but is not in effect: %<units>s waiting " \
            "threads held %<native>s native threads (1:1); RUBY_MN_THREADS has no effect before Ruby 3.3"),
        Scheduler.new(key: "max_cpu", env: "RUBY_MAX_CPU", check: "ractors", suffix: "cpu",
          option: "--max-cpu LIST", help: "RUBY_MAX_CPU values, native threads of the M:N scheduler (Ruby >= 3.3), e.g. 1,8",
          label: "RUBY_MAX_CPU=%<value>s (%<state>s)",
          refusal: "RUBY_MAX_CPU=%<value>s was asked for but ractors do not share native threads on this Ruby: %<units>s " \
            "waiting ractors held %<native>s native threads (1:1); RUBY_MAX_CPU has no effect before Ruby 3.3")
      ].freeze
    end
  end
end
