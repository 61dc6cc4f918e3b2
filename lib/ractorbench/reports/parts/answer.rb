# frozen_string_literal: true

require_relative "../../analysis/rows"
require_relative "../../analysis/winners"
require_relative "verdict"
require_relative "units"
require_relative "cells"
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
          panels = Analysis::Rows.for(analysis).reject { |r| r["unsupported"] || r["samples"].to_i.zero? }.group_by(&:panel)
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

        # rows: one size's models; verdict: its Winners entry, if it had one
        # (not when other programs disturbed every run of the fastest or of
        # the runner-up: then there is no telling).
        def entry(rows, verdict)
          w = rows.min_by { |r| r["messages_time"]["median"] }
          size = "#{Plan::Configuration.title(w["workload"], w["params"])} W=#{w["workers"]}"
          how = if verdict&.runner_up && verdict.winner["model"] == w["model"]
            Analysis::Winners.verdict(verdict)
          else
            "no verdict: other programs disturbed its runs"
          end
          "#{size}: #{figure(w, rows)} (n=#{w["samples"]}); #{how}"
        end

        def figure(fastest, rows)
          if fastest.baseline?
            best = rows.select { |r| r["speedup"] && !r.baseline? }.max_by { |r| r["speedup"] }
            return "#{fastest["model"]} fastest#{", best other: #{best["model"]} #{format("%.2f×", best["speedup"])}#{interval(best)}" if best}"
          end
          return "#{fastest["model"]} fastest, #{Units.short_duration(fastest["messages_time"]["median"])} a run" unless fastest["speedup"]

          "#{fastest["model"]} fastest, #{format("%.2f×", fastest["speedup"])} serial#{interval(fastest)}"
        end

        def interval(row)
          s = Cells::Speedup.of(row)
          s.known? ? " #{Cells.interval(s.low, s.high)}" : ""
        end
      end
    end
  end
end
