# frozen_string_literal: true

module Ractorbench
  module Reports
    module Parts
      # What a report says, made once from an analysis (DocumentBuilder):
      # its sections in the report's order, each a typed value (rows whose
      # cells are FigureCells::Speedup and FigureCells::Time, lines of notes, warnings).
      # Every human format (text, summary, markdown, html) writes the whole
      # document: it has one writer method per section id and calls #write,
      # so a section a format cannot write is an error, never a gap in the
      # report. A format decides how a section looks and may lay some out
      # first (an answer-first page), never which sections there are.
      class Document
        # id: what the section holds (a format's writer method of that name
        # writes it); detail: left out of a brief format (the summary, which
        # points to `--format text` for the rest).
        Section = Struct.new(:id, :title, :content, :detail, keyword_init: true)

        # The configurations: rows in report order, [group, row] pairs for
        # the formats that read a group too (HTML's charts), the header.
        Figures = Struct.new(:rows, :pairs, :header, keyword_init: true) do
          def speedup(row) = FigureCells::Speedup.of(row)

          def time(row, metric = "messages_time") = FigureCells::Time.of(row, metric)
        end

        # The answer: each model's speedup per workload and size (rows), and
        # the fastest of each with how sure that is (Winners entries).
        Answer = Struct.new(:rows, :winners, keyword_init: true)

        # How first runs were treated (a sentence, or nil) and every warning.
        Cautions = Struct.new(:note, :warnings, keyword_init: true) do
          # Plain-text lines; refused: options the command at hand does not
          # take (the tour chooses its own sizes): a warning whose advice
          # needs one of them says what else to do, or is left out.
          def lines(refused: [])
            usable = warnings.filter_map { |w| w.for_options(refused) }
            [("Note: #{note}." if note), *usable.map { |message| "WARNING: #{message}" }].compact
          end

          def empty? = note.nil? && warnings.empty?
        end

        attr_reader :analysis, :sections

        def initialize(analysis, sections)
          @analysis = analysis
          @sections = sections
        end

        def [](id) = sections.find { |s| s.id == id }

        def ids = sections.map(&:id)

        def rows = self[:figures].content.rows

        # Nothing measured: no configuration, no ops/s table.
        def empty? = rows.empty? && self[:ops].content.empty?

        # The sections as a format lays them out: those named in first at
        # its top, in that order, then the rest in the report's order; brief
        # leaves out the detail sections.
        def laid_out(first: [], brief: false)
          shown = brief ? sections.reject(&:detail) : sections
          shown.sort_by.with_index { |s, i| [first.index(s.id) || first.size, i] }
        end

        # What writer's method for each section gives, in layout order.
        def write(writer, first: [], brief: false)
          laid_out(first: first, brief: brief).map { |section| writer.public_send(section.id, section) }
        end
      end
    end
  end
end
