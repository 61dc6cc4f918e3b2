# frozen_string_literal: true

require_relative "../../base/console"

module Ractorbench
  module Reports
    module Parts
      # A table for a terminal of a given width, laid out once for it: columns
      # two spaces apart (one when that is what fits), a rule under the
      # headings, numbers right-aligned. The first column names a group of
      # rows (a workload) and is written on its first row only, wrapped over
      # the next rows when long; when even that does not fit, the group's
      # name becomes a line of its own above its rows. With spill:, the last
      # column (a path, a reason) goes under its row, wrapped, when the table
      # does not fit with it. The other columns are never cut. Widths count
      # what shows: a cell is coloured after it is padded.
      class Columns
        Cell = Struct.new(:text, :style)
        MIN_FIRST = 10
        PLAIN = ->(text, _style) { text }
        # Where a spilled cell starts under its row; where rows start under
        # a group's name on a line of its own.
        SPILL_INDENT = 4
        INDENT = 2

        # headings: the first column's and the others'; right: indices of
        # right-aligned columns.
        def initialize(headings, right: [], spill: false)
          @headings = headings
          @right = right
          @spill = spill
          @groups = []
        end

        # name: the group's first-column text; rows: arrays of the other
        # columns' cells (a String, or a Cell to colour).
        def group(name, rows)
          @groups << [name, rows.map { |r| r.map { |c| c.is_a?(Cell) ? c : Cell.new(c.to_s, nil) } }]
        end

        # colour: a callable (text, style) -> text; styles are Console::ANSI's.
        def to_s(width, colour: PLAIN)
          @colour = colour
          @width = width
          all = @headings.drop(1).each_index.map { |i| column_width(i) }
          choices = @spill ? [all, all[0...-1]] : [all]
          need = [longest_word, @headings.first.length, MIN_FIRST].max
          choices.each do |widths|
            [2, 1].each do |gap|
              room = width - widths.sum - gap * widths.size
              return render(widths, room, gap) if room >= need
            end
          end
          render_grouped(choices.find { |widths| grouped_width(widths) <= width } || choices.last)
        end

        private

        def column_width(i)
          [@headings[i + 1].length, *@groups.flat_map { |_, rows| rows.map { |r| r[i].text.length } }].max
        end

        def longest_word = @groups.flat_map { |name, _| name.split }.map(&:length).max.to_i

        def grouped_width(widths, gap = 1) = INDENT + widths.sum + gap * (widths.size - 1)

        def render(widths, room, gap)
          first = [@headings.first.length, *@groups.flat_map { |name, _| Console.fill(name, room) }.map(&:length)].max
          lines = [line(@headings.first, headings(widths), first, widths, gap)]
          lines << "-" * (first + widths.sum + gap * widths.size)
          @groups.each do |name, rows|
            names = Console.fill(name, first)
            rows.each_with_index do |cells, i|
              lines << line(names[i].to_s, cells, first, widths, gap)
              lines.concat(spilled(cells, widths))
            end
            names.drop(rows.size).each { |rest| lines << rest }
          end
          lines.join("\n")
        end

        # Too narrow for a name column: each group's name on a line of its
        # own, the rows under it two spaces in, their columns two spaces
        # apart (one when that is what fits).
        def render_grouped(widths)
          gap = (grouped_width(widths, 2) <= @width) ? 2 : 1
          lines = [line("", headings(widths), INDENT - gap, widths, gap)]
          lines << "-" * grouped_width(widths, gap)
          @groups.each do |name, rows|
            lines << name
            rows.each do |cells|
              lines << line("", cells, INDENT - gap, widths, gap)
              lines.concat(spilled(cells, widths))
            end
          end
          lines.join("\n")
        end

        def headings(widths) = @headings.drop(1).first(widths.size).map { |h| Cell.new(h, nil) }

        # The last cell under its row, when the grid left it out.
        def spilled(cells, widths)
          return [] if widths.size == cells.size || cells.last.text.empty?

          Console.hang(" " * SPILL_INDENT, cells.last.text, @width).map { |l| styled(l, cells.last.style) }
        end

        def line(first, cells, first_width, widths, gap)
          parts = cells.first(widths.size).each_with_index.map do |cell, i|
            styled(@right.include?(i + 1) ? cell.text.rjust(widths[i]) : cell.text.ljust(widths[i]), cell.style)
          end
          (first.ljust(first_width) + parts.map { |p| " " * gap + p }.join).rstrip
        end

        def styled(text, style) = style ? @colour.call(text, style) : text
      end
    end
  end
end
