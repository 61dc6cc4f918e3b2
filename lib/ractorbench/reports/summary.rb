# frozen_string_literal: true

require_relative "text"
require_relative "../plan/configuration"
require_relative "../analysis/rows"
require_relative "parts/columns"
require_relative "parts/figure_cells"
require_relative "parts/units"
require_relative "parts/ops_tables"
require_relative "parts/message_tables"
require_relative "parts/memory_tables"
require_relative "parts/headline"
require_relative "parts/profile_tables"
require_relative "parts/document_builder"
require_relative "../base/console"

require_relative "../reports"

module Ractorbench
  module Reports
    # What `run` and the tour print when they finish, and `report` by
    # default: per configuration the median with its interval, the speedup
    # with its interval and the CPU cost, then the speedups as bars, the
    # verdict, the notes and the warnings. Finished text for a terminal of
    # width columns: its tables laid out for that width, its prose wrapped
    # at it, nothing to wrap again. Without a width (a pipe, a file) the
    # tables are laid out for 100 columns and the prose keeps its lines
    # whole. `wide:` gives report's wide table instead; `report --format
    # text` shows the full statistics.
    module Summary
      HEADINGS = ["workload", "model", "W×M", "n", "median", "speedup", "CPU cost"].freeze
      LEGEND = "median: messages-only time, [95% interval] from 6 runs, else ± std dev; speedup over serial, [95% " \
        "interval]; CPU cost: user+system CPU over serial's for the same work (! = contention); W×M: workers × " \
        "messages each; n: successful runs (of all, when some failed)"

      module_function

      # colour: (text, style) -> text, e.g. Console#colour; refused: options
      # whose advice the command cannot take (Parts::Document::Cautions#lines).
      def render(analysis, width: nil, wide: false, colour: Parts::Columns::PLAIN, refused: [])
        document = Parts::DocumentBuilder.for(analysis)
        writer = Writer.new(analysis, width: width, wide: wide, colour: colour, refused: refused)
        return "No runs in #{analysis.contents.path}.\n" if document.empty?

        # Brief: the gaps to the ideal are in `--format text`, which the command points to.
        document.write(writer, brief: true).flatten.join("\n") + "\n"
      end

      # Each section of the document for a terminal of width columns (nil:
      # tables at 100, prose unwrapped).
      class Writer
        def initialize(analysis, width:, wide:, colour:, refused:)
          @analysis = analysis
          @width = width
          @layout = width || Console::DEFAULT_WIDTH
          @wide = wide
          @colour = colour
          @refused = refused
        end

        def figures(section)
          rows = section.content.rows
          return [] if rows.empty?
          return [Text.summary(rows)] if @wide

          [*prose(LEGEND), Summary.compact(rows, @layout, @colour), *prose(Summary.not_run(rows))]
        end

        def ops(_section)
          @wide ? Parts::OpsTables.text(@analysis) : Parts::OpsTables.compact(@analysis, @layout, prose: @width)
        end

        def messages(section) = Parts::MessageTables.text(section.content, @layout, prose: @width)

        def memory(section) = Parts::MemoryTables.text(section.content, @layout, prose: @width)

        def answer(section) = Summary.headline(section.content.rows, @layout, @width)

        def verdict(section) = prose(section.content)

        def notes(section) = prose(section.content)

        def vm(section) = prose(section.content)

        def profiles(section) = prose(Parts::ProfileTables.compact(section.content))

        def cautions(section) = prose(section.content.lines(refused: @refused))

        # Sentences wrapped at the terminal's width; never a table.
        def prose(*lines) = lines.flatten.compact.map { |line| Console.wrap(line, @width) }
      end

      def compact(rows, width, colour)
        rubies = rows.map { |r| r.ruby }.uniq.size > 1
        table = Parts::Columns.new(rubies ? HEADINGS.dup.insert(2, "ruby") : HEADINGS, right: rubies ? [3, 4, 6, 7] : [2, 3, 5, 6])
        rows.chunk_while { |a, b| a.workload == b.workload && a.params == b.params }.each do |group|
          name = Plan::Configuration.title(group.first.workload, group.first.params)
          table.group(name, group.map { |r| cells(r, rubies) })
        end
        table.to_s(width, colour: colour)
      end

      # The bars, narrowed to the layout's width; the line that explains
      # them is prose.
      def headline(rows, layout, width)
        heading, *bars = Parts::Headline.lines(rows, width: layout)
        [*(Console.wrap(heading, width) if heading), *bars]
      end

      # Why a row has no figures, under the table: the reasons are sentences.
      def not_run(rows)
        rows.select { |r| r.unsupported }.group_by { |r| r.unsupported }.map do |reason, same|
          "not run: #{same.map { |r| "#{r.workload}#{" (#{r.params})" if r.params}/#{r.model}" }.uniq.join(", ")}: #{reason}"
        end
      end

      def cells(r, rubies)
        keys = [r.model, *(rubies ? [r.ruby] : []), "#{r.workers}×#{r.messages}"]
        return keys + ["", "not run (below)", "", ""] if r.unsupported

        n = r.failed.to_i.positive? ? "#{r.samples}/#{r.samples + r.failed}" : r.samples.to_s
        keys + [n, median(r), speedup(r), cost(r)]
      end

      def median(r)
        s = r.messages_time
        return "-" if s.samples.to_i.zero?

        ci = r.messages_time_ci
        shown = Parts::Units.short_duration(s.median)
        return "#{shown} #{Parts::Units.short_range(s.median, ci.low, ci.high)}" if ci&.low
        return shown unless s.stddev && s.median.positive?

        "#{shown} ±#{format("%.0f", s.stddev / s.median * 100)}%"
      end

      def speedup(r)
        return "-" if r.speedup.nil?
        return "1×" if r.baseline?

        s = Parts::FigureCells::Speedup.of(r)
        text = Parts::FigureCells.ratio(s.value) + (s.known? ? " #{Parts::FigureCells.interval(s.low, s.high)}" : "")
        style = if s.known? && s.low > 1 then :green
        elsif s.known? && s.high < 1 then :red
        end
        Parts::Columns::Cell.new(text, style)
      end

      def cost(r)
        return "-" unless r.cpu_cost

        r.contention ? Parts::Columns::Cell.new(format("%.2f×!", r.cpu_cost), :red) : format("%.2f×", r.cpu_cost)
      end
    end

    register("summary", Summary, terminal: true, width: true, colour: true, closing: true, default: true)
  end
end
