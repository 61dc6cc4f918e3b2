# frozen_string_literal: true

require "json"
require_relative "errors"
require_relative "store/run_record"
require_relative "store/header"
require_relative "store/writer"

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

    # Reads a results file line by line. A run line of the wrong shape (not
    # JSON, not UTF-8, wrong types) is skipped and listed in Contents#skipped
    # with its line number, so one damaged line costs one run, not the file.
    def read(path)
      header = nil
      runs = []
      skipped = []
      truncated = false
      each_line(path) do |line, number, last|
        if number == 1
          header = parse_header(path, line)
          next
        end
        record = parse_line(line)
        next if record.nil? # another kind of line (a future "started" mark, say)

        runs << RunRecord.parse(record)
      rescue RunRecord::BadLine, JSON::ParserError, EncodingError => e
        # A collector killed mid-write leaves a cut last line: that is the
        # run in flight, not damage.
        if last && !line.end_with?("\n")
          truncated = true
        else
          skipped << [number, e.is_a?(RunRecord::BadLine) ? e.message : "not a JSON object"]
        end
      end
      header || parse_header(path, nil)
      Contents.new(path: path, header: header, runs: runs, truncated: truncated, skipped: skipped)
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

    def each_line(path)
      File.open(path, "rb") do |file|
        number = 0
        line = file.gets
        while line
          following = file.gets
          number += 1
          yield line.force_encoding(Encoding::UTF_8), number, following.nil?
          line = following
        end
      end
    rescue Errno::ENOENT
      raise UsageError, "cannot read #{path}: no such file"
    rescue Errno::EACCES, Errno::EISDIR, Errno::ELOOP, Errno::ENAMETOOLONG, Errno::ENOTDIR => e
      raise UsageError, "cannot read #{path}: #{e.message.sub(/ @ .*/, "")}"
    end

    def parse_header(path, line)
      raise JSON::ParserError unless line&.valid_encoding?

      header = JSON.parse(line)
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
