# frozen_string_literal: true

require_relative "../../analysis/winners"
require_relative "../../analysis/rows"
require_relative "../parts/figure_cells"
require_relative "../parts/units"
require_relative "../../base/plural"
require_relative "../../analysis"
require_relative "charts"
require_relative "../parts/format"

module Ractorbench
  module Reports
    module Html
      # The page's answer, first: one box per workload saying which model
      # was fastest, by how much, how sure that is (a clear lead, too few
      # runs to tell, or no detectable difference: three different things)
      # and from how many runs. Plain data; the template draws it.
      class VerdictBoxes
        # sureness: Winners' :clear / :too_few / :same / :only; lines: one per
        # further size or Ruby of the same workload.
        Box = Struct.new(:title, :model, :headline, :sureness, :sure_text, :runs, :lines, keyword_init: true)

        BADGES = {clear: "clear", too_few: "too few runs to tell", same: "no detectable difference", only: "one model"}.freeze

        # entries: Analysis::Winners.for the report's [group, row] pairs at alpha.
        def initialize(entries, alpha: 0.05)
          @entries = entries
          @tests = @entries.count(&:p)
          @alpha = alpha
          @rubies = @entries.map(&:ruby).uniq.size > 1
        end

        def boxes
          @entries.group_by { |e| [e.workload, e.params] }.map do |(workload, params), entries|
            main = entries.max_by { |e| [rank(e), e.winner.speedup.to_f] }
            Box.new(title: Charts.short_title(workload, params), model: main.winner.model,
              headline: headline(main), sureness: main.sureness, sure_text: sure_text(main), runs: runs(main),
              lines: (entries - [main]).map { |e| line(e) })
          end
        end

        private

        # A model faster than serial first, clear leads before unclear ones.
        def rank(e)
          faster = !e.winner.baseline? && e.winner.speedup.to_f > 1
          [faster ? 1 : 0, (e.sureness == :clear) ? 1 : 0]
        end

        def where(e) = "W=#{e.workers} M=#{e.messages}#{" on #{e.ruby}" if @rubies}"

        def headline(e)
          w = e.winner
          model = w.model
          if w.baseline?
            "#{model} is fastest: no model ran this faster (#{where(e)})"
          elsif w.speedup
            "#{model}: #{Parts::Format.ratio(w.speedup)} serial's speed (#{where(e)}#{interval(w)})"
          else
            "#{model} is fastest: #{Parts::Units.duration(w.messages_time.median, space: " ")} (#{where(e)})"
          end
        end

        def interval(row)
          s = Parts::FigureCells::Speedup.of(row)
          s.known? ? "; 95% interval #{format("%.2f–%.2f", s.low, s.high)}" : ""
        end

        def sure_text(e)
          return "only #{e.winner.model} ran" if e.sureness == :only

          other = e.runner_up.model
          lead = format("%.0f%%", e.lead * 100)
          case e.sureness
          when :clear then "ahead of #{other} by #{lead} (Mann–Whitney, Holm p #{Analysis::Winners.format_p(e.p_holm)})"
          when :too_few
            "#{lead} ahead of #{other}, but #{e.winner.samples} and #{e.runner_up.samples} runs cannot tell a lead from " \
              "noise: run with --reps #{Analysis::Winners.runs_needed(@tests, alpha: @alpha)} or more"
          else "within the noise of #{other} (#{lead}, Holm p #{Analysis::Winners.format_p(e.p_holm)})"
          end
        end

        def runs(e)
          counts = [e.winner.samples, e.runner_up&.samples].compact.uniq
          "from #{counts.join(" and ")} #{Plural.word(counts.last, "run")} #{(counts.size > 1) ? "per model" : "each"}"
        end

        def line(e)
          w = e.winner
          figure = (w.speedup && !w.baseline?) ? " #{Parts::Format.ratio(w.speedup)}" : ""
          "#{where(e)}: #{w.model}#{figure} — #{BADGES.fetch(e.sureness)} (n=#{w.samples})"
        end
      end
    end
  end
end
