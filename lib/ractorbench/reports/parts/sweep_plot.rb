# frozen_string_literal: true

module Ractorbench
  module Reports
    module Parts
      # A scaling sweep drawn in plain text for the terminal: speedup over
      # serial against workers, one letter per model, `.` for the ideal
      # (speedup = workers, up to the usable cores), then a legend with each
      # model's Amdahl serial fraction.
      class SweepPlot
        ROWS = 10
        COLUMN = 7
        IDEAL = "."
        CLASH = "*"

        def initialize(panel)
          @panel = panel
          @markers = markers(panel.series.map(&:model))
        end

        def to_s
          counts = @panel.worker_counts
          top = nice_top([*@panel.series.flat_map { |s| s.points.map(&:speedup) }, *counts.map { |w| ideal(w) }].compact.max.to_f)
          grid = Array.new(ROWS + 1) { Array.new(counts.size) }
          counts.each_with_index { |w, i| put(grid, row(ideal(w), top), i, IDEAL) }
          @panel.series.each do |s|
            s.points.each { |p| put(grid, row(p.speedup, top), counts.index(p.workers), @markers[s.model]) if p.speedup }
          end
          (["speedup over serial (median)"] + body(grid, top) + axis(counts) + legend).join("\n")
        end

        private

        def ideal(workers)
          @panel.usable_cores ? [workers, @panel.usable_cores].min : workers
        end

        def put(grid, row, column, mark)
          cell = grid[row][column]
          grid[row][column] = (cell.nil? || cell == IDEAL || cell == mark) ? mark : CLASH
        end

        def row(value, top) = (value.clamp(0, top) / top * ROWS).round

        def body(grid, top)
          ROWS.downto(0).map do |r|
            value = top * r / ROWS
            label = (r % 2).zero? ? format("%5.2f", value) : " " * 5
            cells = grid[r].map { |c| (c || " ").center(COLUMN) }.join
            "#{label} |#{cells}".rstrip
          end
        end

        def axis(counts)
          ["      +#{"-" * (COLUMN * counts.size)}",
            "       #{counts.map { |w| w.to_s.center(COLUMN) }.join}  workers"]
        end

        def legend
          ideal = @panel.usable_cores ? "ideal: speedup = workers, up to the #{@panel.usable_cores} usable cores" : "ideal: speedup = workers"
          lines = ["  #{IDEAL}  #{ideal}", "  #{CLASH}  several models on one spot"]
          unfitted, fitted = @panel.series.partition { |s| s.fit.kind.nil? }
          fitted.each { |s| lines << "  #{@markers[s.model]}  #{s.model}: #{fit_text(s.fit)}" }
          # Said once for all the models it holds for, not once a model.
          unless unfitted.empty?
            lines << "  #{unfitted.map { |s| "#{@markers[s.model]} #{s.model}" }.join(", ")}: #{fit_text(unfitted.first.fit)}"
          end
          lines
        end

        def fit_text(fit)
          case fit.kind
          when nil then "no Amdahl fit: that needs speedups at 3 or more worker counts within the usable cores"
          when :worse then "slower with more workers than with one: Amdahl's law cannot describe that"
          when :flat then format("no gain from more workers (serial fraction %.2f, Amdahl fit)", fit.fraction)
          when :superlinear then format("faster than one worker per core (serial fraction %.2f < 0): no Amdahl ceiling", fit.fraction)
          when :linear then format("scales almost linearly: serial fraction %.3f (Amdahl fit over %d point%s)", fit.fraction,
            fit.points, (fit.points == 1) ? "" : "s")
          else
            spread = fit.stderr ? format(" ± %.2f", fit.stderr) : ""
            ceiling = fit.max_speedup ? format(", so at most %.1f× however many cores", fit.max_speedup) : ""
            format("serial fraction %.2f%s (Amdahl fit over %d point%s)%s", fit.fraction, spread, fit.points,
              (fit.points == 1) ? "" : "s", ceiling)
          end
        end

        def nice_top(value)
          return 1.0 unless value.positive?

          step = if value <= 2
            0.5
          else
            ((value <= 8) ? 1.0 : 2.0)
          end
          ((value * 1.05) / step).ceil * step
        end

        # One letter per model: its first letter not already taken.
        def markers(models)
          taken = [IDEAL, CLASH]
          models.to_h do |model|
            letter = (model.upcase.chars + model.downcase.chars + ("A".."Z").to_a).find { |c| c.match?(/[[:alnum:]]/) && !taken.include?(c) }
            taken << letter
            [model, letter]
          end
        end
      end
    end
  end
end
