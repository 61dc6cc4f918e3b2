# frozen_string_literal: true

module Ractorbench
  module Reports
    module Parts
      # A table for a terminal of a given width: columns two spaces apart, a
      # rule under the headings, numbers right-aligned. The first column
      # names a group of rows (a workload) and is written on its first row
      # only, wrapped over the next rows when long; when even that does not
      # fit, the group's name becomes a line of its own above its rows. The
      # other columns are never cut.
      class Columns
        Cell = Struct.new(:text, :style)
        MIN_FIRST = 10

        # headings: the first column's and the others'; right: indices of right-aligned columns.
        def initialize(headings, right: [])
          @headings = headings
          @right = right
          @groups = []
        end

        # name: the group's first-column text; rows: arrays of the other
        # columns' cells (a String, or a Cell to colour).
        def group(name, rows)
          @groups << [name, rows.map { |r| r.map { |c| c.is_a?(Cell) ? c : Cell.new(c.to_s, nil) } }]
        end

        # colour: a callable (text, style) -> text; styles are Console::ANSI's.
        def to_s(width, colour: ->(text, _style) { text })
          @colour = colour
          widths = @headings.drop(1).each_index.map { |i| column_width(i) }
          need = [longest_word, @headings.first.length, MIN_FIRST].max
          [2, 1].each do |gap|
            room = width - widths.sum - gap * widths.size
            return render(widths, room, gap) if room >= need
          end
          render_grouped(widths, 1)
        end

        private

        def column_width(i)
          [@headings[i + 1].length, *@groups.flat_map { |_, rows| rows.map { |r| r[i].text.length } }].max
        end

        def longest_word = @groups.flat_map { |name, _| name.split }.map(&:length).max.to_i

        def render(widths, room, gap)
          first = [@headings.first.length, *@groups.flat_map { |name, _| wrap(name, room) }.map(&:length)].max
          lines = [line(@headings.first, @headings.drop(1).map { |h| Cell.new(h, nil) }, first, widths, gap)]
          lines << "-" * (first + widths.sum + gap * widths.size)
          @groups.each do |name, rows|
            names = wrap(name, first)
            blank = Array.new(rows.first.size) { Cell.new("", nil) }
            rows += [blank] * (names.size - rows.size) if names.size > rows.size
            rows.each_with_index { |cells, i| lines << line(names[i].to_s, cells, first, widths, gap) }
          end
          lines.join("\n")
        end

        # Too narrow for a name column: each group's name on a line of its own.
        def render_grouped(widths, gap)
          indent = 2
          lines = [line("", @headings.drop(1).map { |h| Cell.new(h, nil) }, indent - gap, widths, gap)]
          lines << "-" * (indent + widths.sum + gap * (widths.size - 1))
          @groups.each do |name, rows|
            lines << name
            rows.each { |cells| lines << line("", cells, indent - gap, widths, gap) }
          end
          lines.join("\n")
        end

        def line(first, cells, first_width, widths, gap)
          parts = cells.each_with_index.map do |cell, i|
            padded = @right.include?(i + 1) ? cell.text.rjust(widths[i]) : cell.text.ljust(widths[i])
            cell.style ? @colour.call(padded, cell.style) : padded
          end
          (first.ljust(first_width) + parts.map { |p| " " * gap + p }.join).rstrip
        end

        # Words of text in lines of at most width characters (a word longer
        # than width stands alone).
        def wrap(text, width)
          text.split.each_with_object([]) do |word, lines|
            if lines.empty? || lines.last.length + 1 + word.length > width
              lines << word
            else
              lines[-1] = "#{lines.last} #{word}"
            end
          end
        end
      end
    end
  end
end
