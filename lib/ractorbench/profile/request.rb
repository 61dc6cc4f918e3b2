# frozen_string_literal: true

require_relative "perf"
require_relative "vernier"
require_relative "../base/errors"

module Ractorbench
  module Profile
    # What --profile[=TOOL] asked for, and what each Ruby under test gets:
    # perf where it can record here, vernier where the Ruby can load it,
    # else nothing, said in one line (what is missing, how to get it) while
    # the collection goes on without profiles.
    class Request
      TOOLS = %w[perf vernier].freeze
      AUTO = "auto"
      # Asked for by name, refused with the reason: it crashes under the M:N
      # scheduler non-main ractors run on.
      REFUSED = "stackprof"

      attr_reader :asked

      def self.parse(text)
        asked = text.nil? ? AUTO : text.strip
        return new(asked) if TOOLS.include?(asked) || asked == AUTO || asked == REFUSED

        raise UsageError, "--profile=#{text}: give perf or vernier, or --profile alone (perf where it can run, else vernier)"
      end

      def initialize(asked)
        @asked = asked
      end

      # stackprof never profiles ractors: it crashes under the M:N scheduler
      # that non-main ractors run on. families: {model => family} of the
      # plan's models.
      def refuse!(families)
        return unless @asked == REFUSED

        ractors = families.select { |_, family| family == "ractor" }.keys
        why = if ractors.empty?
          "stackprof is not offered: vernier samples the same Ruby frames, on every thread and ractor"
        else
          "stackprof is refused for ractor models (#{ractors.join(", ")}): it crashes under the M:N scheduler that " \
            "non-main ractors run on"
        end
        raise UsageError, "--profile=stackprof: #{why}; use --profile=vernier (Ruby frames) or --profile=perf (C functions, the kernel)"
      end

      # {ruby name => "perf" | "vernier" | nil} and the lines to say. A Ruby
      # that runs its own child (mruby) has no profiled run: said, once.
      def tools(targets)
        own, targets = targets.partition { |t| !t.programs.loads_harness? }
        chosen, lines = choose(targets)
        return [chosen, lines] if own.empty?

        [chosen.merge(own.to_h { |t| [t.name, nil] }),
          lines + ["--profile: #{own.map(&:name).join(", ")} not profiled: a profile needs ractorbench's Ruby harness in the child"]]
      end

      private

      def choose(targets)
        perf_problem = Perf.problem unless @asked == "vernier"
        return [targets.to_h { |t| [t.name, "perf"] }, []] if perf_problem.nil? && @asked != "vernier"

        if @asked == "perf"
          return [targets.to_h { |t| [t.name, nil] }, ["--profile=perf: #{perf_problem}; collecting without profiles"]]
        end

        lines = []
        chosen = targets.to_h do |t|
          problem = Vernier.problem(t)
          lines << problem if problem
          [t.name, problem ? nil : "vernier"]
        end
        return [chosen, []] if lines.empty? && perf_problem.nil?

        [chosen, [summary_line(perf_problem, lines, chosen)]]
      end

      # One line: why not perf (when it was the first choice), which Rubies
      # get no profile and why, and that the collection goes on.
      def summary_line(perf_problem, vernier_lines, chosen)
        without = chosen.select { |_, tool| tool.nil? }.keys
        parts = []
        parts << perf_problem if perf_problem
        parts.concat(vernier_lines)
        outcome = if without.empty?
          "profiling with vernier"
        elsif without.size == chosen.size
          "collecting without profiles"
        else
          "profiling #{(chosen.keys - without).join(", ")} with vernier, the others without profiles"
        end
        "--profile#{"=#{@asked}" unless @asked == AUTO}: #{(parts + [outcome]).join("; ")}"
      end
    end
  end
end
