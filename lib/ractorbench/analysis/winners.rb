# frozen_string_literal: true

require_relative "../stats/mann_whitney"
require_relative "../stats/holm"
require_relative "reps_advice"
require_relative "../plan/configuration"

module Ractorbench
  class Analysis
    # Which model is fastest for each workload and size, by how much, and
    # whether its lead over the runner-up is more than noise (Mann-Whitney,
    # Holm-adjusted over all the configurations at once).
    module Winners
      # sureness: :clear (the lead is beyond the noise), :too_few (so few
      # runs that no lead could have shown: not the same as "no lead"),
      # :same (enough runs, no detectable lead), :only (one model ran).
      Entry = Struct.new(:workload, :params, :workers, :messages, :ruby, :winner, :runner_up, :lead, :p, :p_holm,
        :clear, :sureness, keyword_init: true) do
        def panel = Plan::Panel.new(workload: workload, params: params, workers: workers, messages: messages, ruby: ruby)
      end

      module_function

      # pairs: [group, row] for every configuration, in Rows order.
      def for(pairs, alpha: 0.05)
        # A configuration measured only while other programs were busy has
        # figures, not a verdict.
        panels = pairs.select { |g, r| r.samples.to_i.positive? && !g.all_disturbed? }
          .group_by { |_, r| r.panel }
        entries = panels.map { |key, members| entry(key, members.sort_by { |_, r| r.messages_time.median }) }
        tests = entries.count(&:p)
        Stats::Holm.adjust(entries.map(&:p)).each_with_index do |p, i|
          e = entries[i]
          e.p_holm = p
          e.clear = !p.nil? && p < alpha
          e.sureness = sureness(e, tests, alpha)
        end
        entries
      end

      def sureness(e, tests, alpha)
        return :only unless e.runner_up
        return :clear if e.clear
        return :too_few if e.p_holm.nil? || Stats::MannWhitney.min_p(e.winner.samples, e.runner_up.samples) * tests >= alpha

        :same
      end

      # Runs per model that would let a lead show at all, with this many tests.
      def runs_needed(tests, alpha: 0.05) = Analysis::RepsAdvice.needed(tests, alpha: alpha)

      def entry(panel, members)
        (g1, winner), (g2, runner_up) = members
        test = g2 && Stats::MannWhitney.test(times(g1), times(g2))
        lead = runner_up && runner_up.messages_time.median / winner.messages_time.median - 1
        Entry.new(**panel.to_h, winner: winner, runner_up: runner_up, lead: lead, p: test&.p)
      end

      # In order already (Group#sorted, shared with the row's figures): the
      # test's ranking then sorts little.
      def times(group) = group.sorted("messages_time")

      # One sentence for an entry, in plain words; name (a block) formats
      # model names for the output at hand (escaping them for Markdown).
      def verdict(e, &name)
        name ||= ->(text) { text }
        return "only #{name.call(e.winner.model)} ran" unless e.runner_up

        lead = format("%.0f%%", e.lead * 100)
        runner_up = name.call(e.runner_up.model)
        if e.clear
          # A lead past 100% reads better as a ratio: "24.9× faster than ractors", not "by 2389%".
          return "#{format("%.1f×", 1 + e.lead)} faster than #{runner_up} (Holm p #{format_p(e.p_holm)})" if e.lead > 1

          return "ahead of #{runner_up} by #{lead} (Holm p #{format_p(e.p_holm)})"
        end

        "~ no clear lead over #{runner_up} (#{lead}, Holm p #{format_p(e.p_holm)}#{", too few runs to tell" if e.sureness == :too_few})"
      end

      def format_p(p)
        return "-" if p.nil?

        (p < 0.001) ? "<0.001" : format("%.3f", p)
      end
    end
  end
end
