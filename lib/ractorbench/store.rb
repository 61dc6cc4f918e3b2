# frozen_string_literal: true

require "json"
require_relative "errors"
require_relative "store/run_record"
require_relative "store/run_table"
require_relative "store/source"
require_relative "store/split_read"
require_relative "store/header"
require_relative "store/header_plan"
require_relative "store/writer"
require_relative "store/bounded_lines"
require_relative "spare_memory"

module Ractorbench
  # Results files: JSON Lines, a header first (tool, command, machine,
  # rubies, plan), then one line per finished run, each flushed and synced
  # before the next run starts, so a collector killed at any moment loses at
  # most the run in flight.
  module Store
    TOOL = "ractorbench"

    # What a results file holds once read back.
    # readers: how many processes read its runs (SplitRead); templated: how
    # many run lines were folded without being parsed (LineTemplate).
    Contents = Struct.new(:path, :header, :runs, :truncated, :skipped, :readers, :templated, keyword_init: true)

    module_function

    # Reads a results file: its header, then its run lines, each checked
    # and folded into a RunTable as it is read, so what stays in memory is
    # each configuration's varying figures, not each line. A run line of the
    # wrong shape is skipped and listed in Contents#skipped with its line
    # number: one damaged line costs one run, not the file, and a line longer
    # than BoundedLines allows is skipped unread. A big file is
    # read by several processes at once (SplitRead); readers: how many
    # (default: SplitRead.readers). plan: false leaves a big header's list
    # of planned runs in the file, checked but not kept (HeaderPlan).
    def read(path, readers: nil, plan: true)
      source = Source.new(path)
      reading = nil
      header, parts = open_results(path) do |file|
        # A big file's readers are at work before its header is parsed
        # (a plan of a million runs is most of a second of parsing). A
        # header that does not parse ends them.
        reading = start_reading(path, file, source, readers) if file.stat.file?
        header = read_header(path, file, plan)
        # A pipe or a device (report /dev/stdin) is read as it comes, once.
        next [header, [LineRange.read_stream(file)]] unless reading

        # What parsing the header left (a big one, hundreds of megabytes)
        # handed back before the readers' tables come in.
        SpareMemory.release
        [header, reading.answers]
      ensure
        reading&.abandon
      end
      # The readers' tables, of their shares of the configurations, merged
      # into the file's order (a lone reader's, or a pipe's, taken as it is).
      runs = RunTable.new(source).merge(parts.map(&:table))
      unless runs # a configuration in two shares (RunTable#merge): read again here, alone
        parts = reading.alone.call
        runs = parts.first.table.read_from(source)
      end
      # Every reader counts every line: a skipped line's number is the file's.
      skipped = parts.flat_map { |part| part.skipped.map { |n, why| [1 + n, why] } }.sort_by(&:first) # 1: the header's line
      SpareMemory.release if parts.size > 1 # the readers' tables, merged into this one
      Contents.new(path: path, header: header, runs: runs, truncated: parts.any?(&:truncated), skipped: skipped,
        readers: parts.map(&:reader).uniq.size, templated: parts.sum(&:templated))
    end

    # What a reader should be told about a file it read: a cut last line and
    # each skipped line (the first few, then a count).
    def warnings(contents, shown: 5)
      path = contents.path
      lines = []
      lines << "the last line of #{path} was cut off (a collector stopped mid-write); using the #{contents.runs.size} complete runs" if contents.truncated
      skipped = contents.skipped || []
      skipped.first(shown).each { |number, why| lines << "skipped line #{number} of #{path}: #{why}" }
      lines << "skipped #{skipped.size - shown} more damaged lines of #{path}" if skipped.size > shown
      lines
    end

    # The reading of a file's run lines begun (SplitRead.start), from the
    # end of its first line; file is left at its start.
    def start_reading(path, file, source, readers)
      size = file.size
      body = BoundedLines.next_line_start(file, 0, [size, BoundedLines::HEADER + 1].min)
      file.seek(0)
      SplitRead.start(path, body, size, source, SplitRead.readers(size - body, readers))
    end

    # The header of the file at its start, the file then past it. A method
    # of its own: the line (a hundred megabytes with a big plan) is garbage
    # once it returns, not held while the runs are read; and emptied as it
    # returns, since Ruby 3.4 kept it through the next full GC (a stale
    # reference, we guess): 100 MB more in the process that holds every run.
    def read_header(path, file, plan)
      first, problem = BoundedLines.first_line(file)
      raise UsageError, "#{path} is not a ractorbench results file (#{problem})" if problem

      parse_header(path, first&.force_encoding(Encoding::UTF_8), plan: plan)
    ensure
      first&.clear
    end

    def open_results(path, &block)
      File.open(path, "rb", &block)
    rescue Errno::ENOENT
      raise UsageError, "cannot read #{path}: no such file"
    rescue Errno::EACCES, Errno::EISDIR, Errno::ELOOP, Errno::ENAMETOOLONG, Errno::ENOTDIR => e
      raise UsageError, "cannot read #{path}: #{e.message.sub(/ @ .*/, "")}"
    end

    def parse_header(path, line, plan: true)
      raise JSON::ParserError unless line&.valid_encoding?

      header = (!plan && HeaderPlan.parse(line)) || JSON.parse(line)
      return Header.check(path, header) if header.is_a?(Hash) && header["type"] == "header" && header["tool"] == TOOL

      raise JSON::ParserError
    rescue JSON::ParserError
      raise UsageError, "#{path} is not a ractorbench results file (its first line is not a ractorbench header)"
    end

    # The record of a run line, nil for other kinds of line.
    def parse_line(line)
      raise EncodingError, "not UTF-8" unless line.valid_encoding?

      record = JSON.parse(line)
      raise JSON::ParserError unless record.is_a?(Hash)

      (record["type"] == "run") ? record : nil
    end
  end
end
