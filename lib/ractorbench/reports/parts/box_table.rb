# frozen_string_literal: true

require_relative "../../base/console"

module Ractorbench
  module Reports
    module Parts
      # A table in ASCII boxes, as wide as its cells make it (the full text
      # report's tables, report --by's): a centred title over every column, the
      # headings, then the rows, a cell one space in from its borders. A Span
      # is one cell across several columns (a row with no figures saying why).
      # Right-aligned columns align their rows' cells, not the headings. Where
      # a spanning cell is wider than its columns, the columns widen, each
      # first one taking an even share of what its span needs while it has room.
      class BoxTable
        Span = Struct.new(:text, :columns)
        # A cell's border and padding: the "|" and a space on each side.
        SPACING = 3
        PAD = {left: :ljust, right: :rjust, center: :center}.freeze

        # rows: lists of cells, each anything to_s or a Span; right: the
        # indices of the right-aligned columns.
        def initialize(title:, headings:, rows:, right: [])
          @title = title
          @headings = headings.map { |h| Span.new(h.to_s, 1) }
          @right = right
          @rows = rows.map { |cells| cells.map { |c| c.is_a?(Span) ? c : Span.new(c.to_s, 1) } }
        end

        def to_s
          widths = column_widths
          [rule(widths), boxed(widths, [Span.new(@title, widths.size)], :center), rule(widths, ends(@headings)),
            boxed(widths, @headings, :left), rule(widths, ends(@headings) | ends(@rows.first)),
            *@rows.map { |cells| boxed(widths, cells, nil) }, rule(widths, ends(@rows.last))].join("\n")
        end

        private

        # Each column as wide as its widest cell, then widened where a cell
        # spanning it (the title last) needs more.
        def column_widths
          count = @headings.size
          widths = Array.new(count, 0)
          spans = []
          [@headings, *@rows].each do |cells|
            at = 0
            cells.each do |cell|
              if cell.columns == 1
                widths[at] = [widths[at], Console.width_of(cell.text)].max
              else
                spans << [at, cell]
              end
              at += cell.columns
            end
          end
          spans.sort_by { |_, cell| cell.columns }.each { |at, cell| spread(widths, at, cell.columns, Console.width_of(cell.text)) }
          spread(widths, 0, count, Console.width_of(@title.to_s))
          widths
        end

        # Widens columns at...at + count so they hold a cell of width needed
        # across them: the first column takes an even share of the whole, or
        # what it has, and the rest the remainder, column by column.
        def spread(widths, at, count, needed)
          whole = span_width(widths, at, count)
          return if needed <= whole
          return widths[at] = needed if count == 1

          share, extra = (needed - (count - 1) * SPACING).divmod(count)
          first_share = share + [extra, 1].min
          rest_share = needed - first_share - SPACING
          first = widths[at]
          rest = span_width(widths, at + 1, count - 1)
          first, rest = if first <= first_share && rest <= rest_share then [first_share, rest_share]
          elsif first > first_share then [first, needed - first - SPACING]
          else [needed - rest - SPACING, rest]
          end
          widths[at] = first
          spread(widths, at + 1, count - 1, rest)
        end

        def span_width(widths, at, count) = widths[at, count].sum + (count - 1) * SPACING

        # The columns after which a row's cells end inside the table (where
        # its inner "|" are); none for no row.
        def ends(cells)
          at = 0
          cells.to_a[0...-1].map { |cell| at += cell.columns }
        end

        # A border line: "+" at its ends and where the row above or below has
        # a "|" (crossings: the columns after which one does).
        def rule(widths, crossings = [])
          "+" + widths.each_with_index.map { |w, i| "-" * (w + 2) + ((i < widths.size - 1 && !crossings.include?(i + 1)) ? "-" : "+") }.join
        end

        # align: the row's alignment; nil: right in the right-aligned columns.
        def boxed(widths, cells, align)
          at = 0
          "|" + cells.map do |cell|
            width = span_width(widths, at, cell.columns)
            side = align || ((@right & (at...at + cell.columns).to_a).empty? ? :left : :right)
            at += cell.columns
            padded(" #{cell.text} ", width + 2, side)
          end.join("|") + "|"
        end

        # Padded to width columns on the screen (a wide character takes two).
        def padded(text, width, side) = text.public_send(PAD.fetch(side), width + text.length - Console.width_of(text))
      end
    end
  end
end
