# frozen_string_literal: true

require_relative "../../analysis/rows"
require_relative "../../analysis/winners"
require_relative "../../analysis/warnings"
require_relative "verdict"
require_relative "units"
require_relative "figure_cells"
require_relative "../../plan/configuration"

module Ractorbench
  module Reports
    module Parts
      # The few lines a first run ends with: for each experiment, the fastest
      # model at each size, its speedup over serial with its interval and
      # runs, and how sure that is (Winners: Mann-Whitney, Holm). A machine
      # too busy to judge says so first, and every line then gives figures,
      # not a winner.
      module Answer
        module_function

        # experiments: [[title, [[workload, params_label], ...]], ...], in
        # the order to tell them.
        def lines(analysis, experiments)
          sure = Analysis::Winners.for(Analysis::Rows.pairs(analysis)).to_h { |e| [e.panel, e] }
          panels = Analysis::Rows.for(analysis).reject { |r| r.unsupported || r.samples.to_i.zero? }.group_by(&:panel)
          # A size with one model (fan-in's mailbox or select) decides nothing.
          told = experiments.flat_map do |title, keys|
            panels.select { |k, rows| keys.include?([k.workload, k.params]) && rows.size > 1 }.map { |k, rows| "  #{title}: #{entry(rows, sure[k])}" }
          end
          return [] if told.empty?

          head = if Verdict.busy?(analysis)
            "The answer on this machine: none yet: #{Verdict.inconclusive(analysis).sub(/\AINCONCLUSIVE: /, "")}; the figures:"
          else
            "The answer on this machine (fastest model at each size; how sure, by Mann-Whitney with Holm's correction):"
          end
          [head, *told]
        end

        # What the tour's workloads stand for in a reader's own code.
        KINDS = [["CPU-bound pure Ruby", %w[prime fib tarai]], ["allocation-heavy work", %w[alloc]],
          ["message passing and starting workers", %w[ring fan-in spawn]]].freeze
        TRY = "ractorbench try my_work.rb"

        # The closing paragraph: what the tour showed for the reader's own
        # code, kind by kind (the fastest model of each of its sizes, and
        # the best speedup over serial among them), then how to try theirs.
        def closing(analysis)
          panels = Analysis::Rows.for(analysis).reject { |r| r.unsupported || r.samples.to_i.zero? }.group_by(&:panel)
            .select { |_, rows| rows.size > 1 }
          said = KINDS.filter_map do |kind, workloads|
            fastest = panels.select { |k, _| workloads.include?(k.workload) }.values
              .map { |rows| rows.min_by { |r| r.messages_time.median } }
            next if fastest.empty?

            ways = fastest.map { |r| r.baseline? ? "serially" : "with #{r.model}" }.tally.sort_by { |w, n| [-n, w] }.map(&:first)
            best = fastest.select { |r| r.speedup && !r.baseline? }.max_by { |r| r.speedup }
            up_to = best ? ", up to #{format("%.2f×", best.speedup)} serial (#{best.model}, n=#{best.samples})" : ""
            shown = fastest.map { |r| r.workload }.uniq.join(", ")
            short = panels.values.any? { |rows| workloads.include?(rows.first.panel.workload) && !caution(rows).empty? }
            "#{kind} (#{shown}) ran fastest #{ways.join(" or ")}" \
              "#{up_to}#{" (some of it too short to show parallelism)" if short}"
          end
          return [] if said.empty?

          ["What this means for your code: on this machine and this Ruby, #{said.join("; ")}. Work that waits (IO, a " \
            "service) was not measured here: threads and fibers overlap waits. Which model makes your own code faster, " \
            "with its figures (a module with work(item); `ractorbench try --help`):", "    #{TRY}"]
        end

        # rows: one size's models; verdict: its Winners entry, if it had one
        # (not when other programs disturbed every run of the fastest or of
        # the runner-up: then there is no telling).
        def entry(rows, verdict)
          w = rows.min_by { |r| r.messages_time.median }
          size = "#{Plan::Configuration.title(w.workload, w.params)} W=#{w.workers}"
          how = if verdict&.runner_up && verdict.winner.model == w.model
            Analysis::Winners.verdict(verdict)
          else
            "no verdict: other programs disturbed its runs"
          end
          "#{size}: #{figure(w, rows)}; #{how}#{caution(rows)}"
        end

        # Each figure with its own n.
        def figure(fastest, rows)
          n = "(n=#{fastest.samples})"
          if fastest.baseline?
            best = rows.select { |r| r.speedup && !r.baseline? }.max_by { |r| r.speedup }
            return "#{fastest.model} fastest #{n}#{", best other: #{best.model} #{format("%.2f×", best.speedup)}#{interval(best)} (n=#{best.samples})" if best}"
          end
          return "#{fastest.model} fastest, #{Units.short_duration(fastest.messages_time.median)} a run #{n}" unless fastest.speedup

          "#{fastest.model} fastest, #{format("%.2f×", fastest.speedup)} serial#{interval(fastest)} #{n}"
        end

        # What weakens the answer, beside it: serial work too short for
        # parallel work to show (the report's too_short warning).
        def caution(rows)
          serial = rows.find(&:baseline?)
          median = serial&.messages_time&.median
          return "" unless median && median < Analysis::Warnings::SHORT_SECONDS

          "; but its work takes #{Units.short_duration(median)} serially, too short to show parallelism (starting " \
            "the workers dominates)"
        end

        def interval(row)
          s = FigureCells::Speedup.of(row)
          s.known? ? " #{FigureCells.interval(s.low, s.high)}" : ""
        end
      end
    end
  end
end
