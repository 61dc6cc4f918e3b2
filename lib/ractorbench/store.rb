# frozen_string_literal: true

require "json"
require_relative "errors"

module Ractorbench
  # Results files: JSON Lines, a header first (tool, command, machine,
  # rubies, plan), then one line per finished run, each flushed and synced
  # before the next run starts, so a collector killed at any moment loses at
  # most the run in flight.
  module Store
    TOOL = "ractorbench"

    # What a results file holds once read back.
    Contents = Struct.new(:path, :header, :runs, :truncated, keyword_init: true)

    # Appends runs to a results file.
    class Writer
      def self.create(path, header)
        raise UsageError, "#{path} already exists; use --resume #{path} to finish it, or another -o" if File.exist?(path)

        File.open(path, File::WRONLY | File::CREAT | File::EXCL, 0o644) { |f| sync_line(f, header) }
        new(path)
      rescue Errno::ENOENT, Errno::EACCES, Errno::EISDIR => e
        raise UsageError, "cannot write results to #{path}: #{e.message.sub(/ @ .*/, "")}"
      end

      # Reopens a file to finish it, cutting a last line that a killed
      # collector left half-written.
      def self.reopen(path)
        data = File.binread(path)
        cut = data.end_with?("\n") ? data.bytesize : (data.rindex("\n") || -1) + 1
        File.truncate(path, cut) if cut < data.bytesize
        new(path)
      end

      def self.sync_line(file, record)
        file.write(JSON.generate(record), "\n")
        file.flush
        file.fsync
      end

      def initialize(path)
        @file = File.open(path, "a")
      end

      def append(record)
        self.class.sync_line(@file, record)
      end

      def close
        @file.close
      end
    end

    module_function

    def read(path)
      data = read_file(path)
      lines = data.split("\n")
      partial = data.end_with?("\n") ? nil : lines.pop
      if partial && complete_json?(partial)
        lines << partial
        partial = nil
      end
      header = parse_header(path, lines.shift)
      runs = lines.each_with_index.map { |line, i| parse_line(path, line, i + 2) }
      Contents.new(path: path, header: header, runs: runs.select { |r| r["type"] == "run" }, truncated: !partial.nil?)
    end

    def read_file(path)
      File.binread(path).force_encoding(Encoding::UTF_8)
    rescue Errno::ENOENT
      raise UsageError, "cannot read #{path}: no such file"
    rescue Errno::EACCES, Errno::EISDIR => e
      raise UsageError, "cannot read #{path}: #{e.message.sub(/ @ .*/, "")}"
    end

    def parse_header(path, line)
      header = JSON.parse(line.to_s)
      return header if header.is_a?(Hash) && header["type"] == "header" && header["tool"] == TOOL

      raise JSON::ParserError
    rescue JSON::ParserError
      raise UsageError, "#{path} is not a ractorbench results file (its first line is not a ractorbench header)"
    end

    def parse_line(path, line, number)
      record = JSON.parse(line)
      raise JSON::ParserError unless record.is_a?(Hash)

      record
    rescue JSON::ParserError
      raise UsageError, "#{path}:#{number} is not a valid results line; the file is damaged"
    end

    def complete_json?(line)
      JSON.parse(line).is_a?(Hash)
    rescue JSON::ParserError
      false
    end
  end
end
