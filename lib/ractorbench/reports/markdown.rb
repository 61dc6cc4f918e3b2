# frozen_string_literal: true

require_relative "../analysis/rows"
require_relative "parts/figure_cells"
require_relative "parts/markdown_text"
require_relative "../plan/configuration"
require_relative "parts/notes"
require_relative "parts/profile_tables"
require_relative "parts/document_builder"
require_relative "parts/glance"
require_relative "parts/ops_tables"
require_relative "parts/message_tables"
require_relative "parts/memory_tables"

require_relative "../reports"
require_relative "parts/format"

module Ractorbench
  module Reports
    # A table ready to paste into a blog post or an issue, with the machine.
    module Markdown
      HEADINGS = ["workload", "model", "W", "M", "ruby", "n", "messages-only s (median ± sd)", "95% CI",
        "whole-process s (median ± sd)", "speedup vs serial", "95% CI", "efficiency", "CPU vs serial", "CPU", "peak MB", "failed"].freeze

      module_function

      # try_outcome: what `try` concluded (an Advisor::Outcome), for a file
      # `try` wrote; it heads the page.
      def render(analysis, try_outcome: nil)
        # The fastest model for each workload and size heads the page.
        body = Parts::DocumentBuilder.for(analysis).write(Writer.new(analysis), first: [:answer]).flatten
        (try_outcome ? try_lines(try_outcome) + [""] + body : body).join("\n") + "\n"
      end

      # The recommendation as a list, then the code to paste, fenced whole.
      def try_lines(outcome)
        advice = outcome.recommendation
        return [] if advice.empty?

        lines = ["## Will it go faster? #{outcome.module_name}.work on #{outcome.items} items", "",
          "**#{Parts::MarkdownText.escape(advice.first.sub(/\ARecommendation: /, ""))}**", "",
          *advice.drop(1).map { |line| "- #{Parts::MarkdownText.escape(line)}" }]
        title, code = outcome.snippet
        title ? lines + ["", title, "", "```ruby", *code.lines.map(&:chomp), "```"] : lines
      end

      # Each section of the document as Markdown lines.
      class Writer
        def initialize(analysis)
          @analysis = analysis
        end

        def answer(section) = Parts::Glance.lines(section.content.winners, section.content.rows)

        # The machine, then the table.
        def figures(section)
          rows = section.content.rows
          align = HEADINGS.map.with_index { |_, i| (i < 5) ? "---" : "---:" }
          table = rows.empty? ? [] : [Markdown.line(HEADINGS), Markdown.line(align), *rows.map { |r| Markdown.line(Markdown.cells(r)) }]
          [Markdown.machine_line(section.content.header), "", *table]
        end

        def ops(_section) = Parts::OpsTables.markdown(@analysis)

        def messages(section) = Parts::MessageTables.markdown(section.content)

        def memory(section) = Parts::MemoryTables.markdown(section.content)

        # A command is shown as code (a span fenced beyond any backquote in
        # it); every other line is prose, escaped as all text from a file is.
        def verdict(section) = ["", *section.content.map { |l| l.start_with?("  ") ? "- #{Markdown.code(l.strip)}" : Markdown.escape(l) }]

        def notes(section) = bullets(section.content)

        def gaps(section) = bullets(section.content)

        def vm(section) = bullets(section.content)

        def profiles(section) = Parts::ProfileTables.markdown(section.content)

        def cautions(section) = Parts::Glance.cautions(section.content)

        # Notes quote paths, names and reasons from the file: escaped.
        def bullets(lines) = lines.map { |l| "- #{Markdown.escape(l.strip)}" }
      end

      def cells(r)
        keys = [Plan::Configuration.title(r.workload, r.params), r.model, r.workers, r.messages, r.ruby]
        return keys + [r.unsupported] + [""] * 10 if r.unsupported

        keys + [r.samples, Parts::Format.seconds(r.messages_time), Parts::FigureCells::Time.of(r).interval,
          Parts::Format.seconds(r.whole_time), Parts::Notes.speedup_cell(r), Parts::Glance.speedup_interval(r), Parts::Notes.efficiency_cell(r), Parts::Notes.cpu_cost_cell(r), Parts::Format.percent(r.cpu_utilisation),
          Parts::Format.megabytes(r.peak_memory_kb), r.failed]
      end

      def line(cells) = Parts::MarkdownText.row(cells)

      def escape(text) = Parts::MarkdownText.escape(text)

      def code(text)
        fence = "`" * ((text.scan(/`+/).map(&:size).max || 0) + 1)
        (fence.size > 1) ? "#{fence} #{text} #{fence}" : "`#{text}`"
      end

      def machine_line(header)
        m = header.machine
        rubies = header.rubies.map { |r| "#{r.name}: #{r.info.description}" }
        "**Machine:** #{escape(m.cpu_model)}, #{m.usable_cores}/#{m.cores} usable cores, #{escape(m.os)}. " \
          "**Rubies:** #{escape(rubies.join("; "))}. **Seed:** #{header.seed}."
      end
    end

    register("markdown", Markdown, extension: "md", try: true)
  end
end
