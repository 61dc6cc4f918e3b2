# frozen_string_literal: true

require "json"
require_relative "base/errors"
require_relative "store/run_record"
require_relative "store/run_table"
require_relative "store/reader"
require_relative "store/source"
require_relative "store/header"
require_relative "store/writer"
require_relative "store/bounded_lines"

module Ractorbench
  # Results files: JSON Lines, a header first (tool, command, machine,
  # rubies, plan), then one line per finished run, each flushed and synced
  # before the next run starts, so a collector killed at any moment loses at
  # most the run in flight.
  module Store
    TOOL = "ractorbench"

    # What a results file holds once read back.
    Contents = Struct.new(:path, :header, :runs, :truncated, :skipped, keyword_init: true)

    module_function

    # Reads a results file: its header, then its run lines one after another
    # (Reader), each folded into a RunTable as it is read, so what stays in
    # memory is each configuration's figures, not each line. A damaged run
    # line costs that run, listed in Contents#skipped with its line number.
    # A pipe or a device (report /dev/stdin) is read once, as it comes.
    def read(path)
      open_results(path) do |file|
        header, offset = read_header(path, file)
        source = Source.new(path) if file.stat.file?
        reader = Reader.new(source, offset: offset, kept: Columns.kept(header.fields)).read(file)
        Contents.new(path: path, header: header, runs: reader.runs, truncated: reader.truncated?, skipped: reader.skipped)
      end
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

    # The header at the file's start, and where the line after it starts.
    def read_header(path, file)
      first, problem = BoundedLines.first_line(file)
      raise UsageError, "#{path} is not a ractorbench results file (#{problem})" if problem

      [parse_header(path, first&.force_encoding(Encoding::UTF_8)), first.to_s.bytesize]
    end

    def open_results(path, &block)
      File.open(path, "rb", &block)
    rescue Errno::ENOENT
      raise UsageError, "cannot read #{path}: no such file"
    rescue Errno::EACCES, Errno::EISDIR, Errno::ELOOP, Errno::ENAMETOOLONG, Errno::ENOTDIR => e
      raise UsageError, "cannot read #{path}: #{e.message.sub(/ @ .*/, "")}"
    end

    def parse_header(path, line)
      raise JSON::ParserError unless line&.valid_encoding?

      header = JSON.parse(line)
      return Header.read(path, header) if header.is_a?(Hash) && header["type"] == "header" && header["tool"] == TOOL

      raise JSON::ParserError
    rescue JSON::ParserError
      raise UsageError, "#{path} is not a ractorbench results file (its first line is not a ractorbench header)"
    end
  end
end
