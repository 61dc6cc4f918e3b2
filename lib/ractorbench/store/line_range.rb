# frozen_string_literal: true

require "json"
require "strscan"
require_relative "run_record"
require_relative "run_table"
require_relative "bounded_lines"
require_relative "share"
require_relative "../plan/configuration"
require_relative "../spare_memory"
require_relative "../own_jit"

module Ractorbench
  module Store
    # One stretch of a results file's run lines, from a line start to before
    # another, read into its own RunTable. A line of the wrong shape (not JSON,
    # not UTF-8, wrong types) is skipped and listed with its number within
    # the stretch; a cut last line of the file is the run a collector was
    # writing when it stopped, not damage; a line longer than
    # BoundedLines::RUN_LINE is skipped unread.
    #
    # A file is read READ bytes at a time and scanned in place: a line its
    # configuration's template takes (Columns::LineTemplate) is folded from
    # the buffer without becoming a String of its own; any other line is cut
    # out, parsed and folded field by field. A read's lines are folded a
    # configuration at a time, in file order within each (fold_groups).
    #
    # With a Share, only the runs of that share's configurations are folded:
    # the others are passed over unparsed when their id names them, and line
    # numbers count every line, so that each reader's are the file's.
    class LineRange
      # reader: the process that read it; templated: how many of its lines
      # were folded by template; jit: whether it read with YJIT on.
      Result = Struct.new(:table, :skipped, :truncated, :lines, :reader, :templated, :jit)

      # A big file's lines take turns among a thousand configurations:
      # folded as they come, each line brings its configuration's template
      # and columns back into the cache. Eight megabytes hold eight or nine
      # lines of each configuration of a million runs (960 MB): a reader of
      # half of them, folding a read's lines a configuration at a time, took
      # 19% less CPU on Ruby 3.1 and 17% less on 4.0 than folding a megabyte's
      # lines as they came, for 4-6 MB more memory.
      READ = 8 << 20
      # A pipe is read a megabyte at a time, as it comes.
      CHUNK = 1 << 20
      NEWLINE = /\n/
      # A line that says first it is of another type than a run (a writer's
      # mark before each run, until the collection finishes): it never
      # reaches a table, so the lines held need not be folded before it.
      OTHER_TYPE = /\{"type":"(?!run")/

      # file_size: where the file ended when reading began. trim: false for
      # a table about to go down a pipe (trimming copies every list, 25 MB
      # for half a million runs, at the very moment a reader holds most).
      def self.read(path, from, to, source, file_size, trim: true, share: nil)
        File.open(path, "rb") do |file|
          new(file, from, to, source, file_size, share, positioned: true).result(trim: trim)
        end
      end

      # The rest of a pipe (report /dev/stdin): no offsets to read back from.
      def self.read_stream(io) = new(io, 0, Float::INFINITY, nil, Float::INFINITY).result

      # positioned: file is a file read at offsets (IO#pread), not a stream.
      def initialize(file, from, to, source, file_size, share = nil, positioned: false)
        @file = file
        @positioned = positioned
        @share = share
        @from = from
        @to = to
        @source = source
        @file_size = file_size
        # A file's labelled lines are folded a configuration at a time
        # (fold_groups); a stream's, which cannot be read again, as they come.
        start(grouped: positioned)
      end

      def result(trim: true)
        rest = begin
          @positioned ? read_file_lines : read_whole_lines
        rescue OutOfGroup
          start(grouped: false)
          retry
        end
        # A last line with no newline: cut, or the file's last.
        fold_line(rest, @offset, @number += 1, owned: owner_named(StringScanner.new(rest.force_encoding(Encoding::UTF_8)))) unless rest.empty?
        Result.new(@table.settled(trim: trim), @skipped, @truncated, @number, Process.pid, @templated, OwnJit.on?)
      end

      private

      # A line whose id names another configuration than its fields (or
      # another spelling of its configuration's label) was folded with the
      # lines of its id's label: its configuration's runs may be out of
      # file order. The stretch is read again, every line as it comes.
      class OutOfGroup < StandardError; end

      def start(grouped:)
        @table = RunTable.new(@source)
        @skipped = []
        @truncated = false
        @number = 0
        @templated = 0
        @offset = @from
        @passing = false
        @groups = grouped ? {} : nil
      end

      # Folds every line of the stretch that ends in a newline; gives back
      # what is left. Each read is made at the offset of its first line into
      # the same buffer, and ends where its last line does: a reader makes no
      # String a read (three a megabyte, reading on from a held rest, were a
      # third of a reader's peak on Ruby 4.0: garbage that only a GC frees,
      # made with objects too few to bring one soon).
      def read_file_lines
        buffer = String.new(capacity: [READ, @to - @offset].min.clamp(0..), encoding: Encoding::BINARY)
        while (wanted = [READ, @to - @offset].min).positive?
          SpareMemory.after_full_gc
          read_at(wanted, buffer) or break
          if (last = buffer.rindex("\n"))
            buffer[last + 1..] = "" # the cut line is read again next, whole
            fold_lines(buffer)
          elsif (rest = read_long_line)
            return rest
          end
        end
        "".b
      end

      # The stretch from here holds no newline within a read: the line
      # here, folded when it ends within BoundedLines::RUN_LINE (nil), or
      # skipped unread past its end (nil); or the stretch's last line, cut,
      # given back.
      def read_long_line
        window = read_at([BoundedLines::RUN_LINE + 1, @to - @offset].min, "".b) or return "".b
        if (newline = window.index("\n"))
          window[newline + 1..] = ""
          fold_lines(window)
          nil
        elsif window.bytesize > BoundedLines::RUN_LINE
          skip_long_line(window)
          pass_over_file
        else
          window
        end
      end

      # Past the end of the long line being passed over.
      def pass_over_file
        buffer = "".b
        while @passing && read_at(CHUNK, buffer)
          pass_over(buffer)
        end
        nil
      end

      # Up to length bytes from the current offset, into buffer (as bytes:
      # it is cut by byte); nil at the end of the file.
      def read_at(length, buffer)
        @file.pread(length, @offset, buffer).force_encoding(Encoding::BINARY)
      rescue EOFError
        nil
      end

      # Folds every line of a stream that ends in a newline; gives back what
      # is left. A line longer than BoundedLines::RUN_LINE is skipped unread:
      # what was held of it dropped, the rest passed over a piece at a time.
      def read_whole_lines
        rest = "".b
        while (chunk = next_chunk(rest.bytesize))
          chunk = pass_over(chunk) if @passing
          rest << chunk
          if (last = rest.rindex("\n"))
            fold_lines(rest.byteslice(0, last + 1))
            rest = rest.byteslice(last + 1, rest.bytesize - last - 1)
          end
          rest = skip_long_line(rest) if rest.bytesize > BoundedLines::RUN_LINE
        end
        rest
      end

      def skip_long_line(held)
        @number += 1
        @skipped << [@number, "longer than #{BoundedLines::RUN_LINE / 1024 / 1024} MB, skipped unread"] if reports_unowned?
        @offset += held.bytesize
        @passing = true
        "".b
      end

      # What follows the end of the line being passed over.
      def pass_over(chunk)
        newline = chunk.index("\n")
        @offset += newline ? newline + 1 : chunk.bytesize
        return "".b unless newline

        @passing = false
        chunk.byteslice(newline + 1, chunk.bytesize - newline - 1)
      end

      def next_chunk(held)
        SpareMemory.after_full_gc
        wanted = [CHUNK, @to - @offset - held].min
        wanted.positive? ? @file.read(wanted) : nil
      end

      # lines: whole lines, each ending in a newline.
      def fold_lines(lines)
        lines.force_encoding(Encoding::UTF_8)
        # A template is matched in place only on valid UTF-8; a buffer with a
        # bad byte goes line by line, and the bad line is skipped.
        unless lines.valid_encoding?
          lines.each_line do |line|
            fold_line(line, @offset, @number += 1, owned: owner_named(StringScanner.new(line)))
            @offset += line.bytesize
          end
          return
        end

        scanner = StringScanner.new(lines)
        until scanner.eos?
          start = scanner.pos
          label = scanner.skip(RunTable::RUN_START) && scanner[1]
          owned = owns_label?(label)
          @number += 1
          if owned == false
            pass_line(scanner, lines)
          elsif label && @groups
            (@groups[label] ||= []).push(start, scanner.pos, @number)
            pass_line(scanner, lines)
          else
            fold_groups(scanner) unless scanner.match?(OTHER_TYPE)
            fold_at(scanner, start, label, owned, @number)
          end
        end
        fold_groups(scanner)
        @offset += lines.bytesize
      end

      # The line at start (the scanner past its label): folded by its
      # configuration's template, or parsed.
      def fold_at(scanner, start, label, owned, number, group: nil)
        if label && @table.add_scanned(scanner, label, @source && @offset + start)
          @templated += 1
        else
          scanner.pos = start
          fold_line(scanner.scan_until(NEWLINE), @offset + start, number, owned: owned, group: group)
        end
      end

      # The labelled lines held since the last fold, a configuration at a
      # time (its template and columns used while they are in the cache), in
      # the order each first came: configurations are still met in the order
      # their first runs came. Each label's lines are [start, past the
      # label, number] in one Array. The labels go with their lines: a run
      # line with no label (its fields in another order) folds what was
      # held, and walking every label seen so far at each such line took a
      # hundred thousand runs of a thousand configurations 12 s against 5.
      def fold_groups(scanner)
        return if @groups.nil? || @groups.empty?

        @groups.each do |label, entries|
          i = 0
          while (start = entries[i])
            scanner.pos = entries[i + 1]
            fold_at(scanner, start, label, true, entries[i + 2], group: label)
            i += 3
          end
        end
        @groups.clear
      end

      # The scanner past the next newline: half the lines of a big file are
      # another share's, and memchr finds their ends at a third of what a
      # regular expression costs, where byte and character offsets agree.
      def pass_line(scanner, lines)
        at = NEWLINE_AT.call(lines, scanner.pos)
        at ? (scanner.pos = at + 1) : scanner.skip_until(NEWLINE)
      end

      NEWLINE_AT = if String.method_defined?(:byteindex)
        ->(lines, from) { lines.byteindex("\n", from) }
      else
        ->(lines, from) { lines.index("\n", from) if lines.ascii_only? }
      end

      # owned: whether the line is this share's by the label its id names
      # (nil: it names none, and its configuration says once it is parsed).
      def fold_line(line, offset, number, owned: true, group: nil)
        record = Store.parse_line(line.force_encoding(Encoding::UTF_8))
        return unless record # another kind of line
        return if owned == false || (owned.nil? && !owns_configuration?(record))

        columns = @table.add(record, @source && offset)
        raise OutOfGroup if group && columns.label != group
      rescue RunRecord::BadLine, JSON::ParserError, EncodingError => e
        if !line.end_with?("\n") && at_end?(offset + line.bytesize)
          @truncated = true
        elsif owned || (owned.nil? && reports_unowned?)
          @skipped << [number, e.is_a?(RunRecord::BadLine) ? e.message : "not a JSON object"]
        end
      end

      # Whether the file ends at offset: where it ended when reading began,
      # or where it ends now (it was cut meanwhile).
      def at_end?(offset)
        offset >= @file_size || (@positioned ? offset >= @file.size : @file.eof?)
      end

      # Whether the line at scanner's position is this share's by the label
      # its id names (owns_label?); the scanner is left where it was.
      def owner_named(scanner)
        return true unless @share
        return nil unless scanner.string.valid_encoding? # no regular expression reads it; parsing tells

        start = scanner.pos
        label = scanner.skip(RunTable::RUN_START) && scanner[1]
        scanner.pos = start
        owns_label?(label)
      end

      # Whether a line whose id names label is this share's: always without
      # a share; nil when it names none (its configuration says, once parsed).
      def owns_label?(label)
        return true unless @share

        label && @share.owns?(label)
      end

      # A run named by no id: this share's when its configuration is.
      def owns_configuration?(record)
        RunRecord.validate(record) # a configuration is made only of checked names
        @share.owns?(Plan::Configuration.of(record).label)
      end

      # A line no share's configuration claims (damage, an overlong line) is
      # reported by the first share's reader alone.
      def reports_unowned? = @share.nil? || @share.first?
    end
  end
end
