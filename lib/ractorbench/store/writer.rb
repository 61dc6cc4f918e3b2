# frozen_string_literal: true

require "json"
require "time"
require_relative "json_safe"
require_relative "output_path"
require_relative "../errors"

module Ractorbench
  module Store
    # Writes a results file: the header whole before any run (a temporary
    # file put in place, so no kill or full disk leaves a file that can be
    # neither resumed nor replaced), then one line per finished run, flushed
    # and synced before the next run starts. Before each run it writes a
    # "started" mark, so --resume can tell a run during which the collector
    # died (Store::Marks). The file is locked (flock) while it is written: a
    # second writer is refused. A file deleted or replaced while a run ran is
    # put back from the open copy.
    class Writer
      # A file system error after the collection began: the file is left as
      # it was before the failed write, and can be resumed.
      class Failed < StandardError; end

      attr_reader :path

      # run -o PATH: a new file with its header. force: replace a regular
      # file (not one another collector is writing).
      def self.create(path, header, force: false)
        exists = exists_message(path)
        OutputPath.check!(path, force: force, exists: exists)
        lock_existing(path) if force && File.file?(path)
        temp, file = OutputPath.temporary(path)
        locked!(file, path)
        sync_line(file, header)
        OutputPath.place(temp, path, force: force, exists: exists)
        new(path, file)
      rescue SystemCallError, IOError => e
        OutputPath.discard(file, temp)
        raise UsageError, "cannot write results to #{path}: #{OutputPath.reason(e)}"
      end

      # What to say when path is already there, without --force.
      def self.exists_message(path)
        incomplete = Marks.incomplete_header(path) if File.file?(path)
        incomplete || "#{path} already exists; use --resume #{path} to finish it, or another -o (--force replaces it)"
      end

      # run --resume PATH: the file locked for this collector alone. Call
      # #drop_partial_line once it is known to be a results file.
      def self.resume(path)
        problem = Marks.incomplete_header(path)
        raise UsageError, problem if problem

        file = File.open(path, File::RDWR | File::APPEND)
        locked!(file, path)
        new(path, file)
      rescue Errno::ENOENT
        raise UsageError, "cannot resume #{path}: no such file"
      rescue SystemCallError => e
        raise UsageError, "cannot resume #{path}: #{OutputPath.reason(e)}"
      end

      def self.lock_existing(path)
        File.open(path, "r") { |f| locked!(f, path) }
      end

      def self.locked!(file, path)
        return if file.flock(File::LOCK_EX | File::LOCK_NB)

        raise UsageError, "#{path} is being written by another ractorbench (a run or --resume still going); " \
          "wait for it to finish or stop it, then try again"
      end

      def self.sync_line(file, record)
        write_all(file, JSON.generate(JsonSafe.record(record)) + "\n")
        file.fsync
      end

      # Straight to the file (write(2), no buffer): what failed to be
      # written is not flushed later behind the writer's back.
      def self.write_all(file, data)
        data = data.b
        written = 0
        written += file.syswrite(data.byteslice(written..)) while written < data.bytesize
      end

      def initialize(path, file)
        @path = path
        @file = file
        @identity = identity(file.stat)
      end

      # Cuts a last line that a killed collector left half-written (the
      # header is known complete: Marks.incomplete_header).
      def drop_partial_line
        size = @file.size
        return if size.zero? || @file.pread(1, size - 1) == "\n"

        at = size
        while at.positive?
          start = [at - 65_536, 0].max
          newline = @file.pread(at - start, start).rindex("\n")
          return @file.truncate(start + newline + 1) if newline

          at = start
        end
      end

      # The write-ahead mark of a run about to start. Flushed, not synced: it
      # is for a collector that dies, not for a machine that does.
      def started(id, seq)
        @marked = true
        line({"type" => "started", "id" => id, "seq" => seq, "at" => Time.now.utc.iso8601(3)}, sync: false)
      end

      # The run in flight was stopped by the user (Ctrl-C, SIGTERM): run it
      # again on --resume, it did nothing wrong.
      def interrupted(id)
        @marked = true
        line({"type" => "interrupted", "id" => id}, sync: false)
      end

      def append(record)
        line(record, sync: true)
      end

      # The collection is complete: the marks have done their job, and the
      # file becomes what it always was, a header and one line per run (a
      # copy without them put in place). If that cannot be done (a full
      # disk), the marks stay: readers skip them.
      def finish
        return close unless @marked && identity(File.stat(@path)) == @identity

        temp, copy = OutputPath.temporary(@path)
        @file.rewind
        @file.each_line { |l| copy.write(l) unless l.start_with?('{"type":"started"', '{"type":"interrupted"') }
        copy.flush
        copy.fsync
        copy.close
        File.rename(temp, @path)
      rescue SystemCallError, IOError
        OutputPath.discard(copy, temp)
      ensure
        close
      end

      def close
        @file.close unless @file.closed?
      end

      private

      # One line, or nothing: a failed write is cut back off, so the file
      # stays resumable.
      def line(record, sync:)
        restore_if_gone
        size = @file.size
        begin
          self.class.write_all(@file, JSON.generate(JsonSafe.record(record)) + "\n")
          @file.fsync if sync
        rescue SystemCallError, IOError => e
          cut_back(size)
          raise Failed, "cannot write to #{@path}: #{OutputPath.reason(e)}"
        end
      end

      def cut_back(size)
        @file.truncate(size)
      rescue SystemCallError, IOError
        nil
      end

      # A run (or anyone) deleted or replaced the file: write what this
      # collector has (its open copy) back at the path, or beside it if the
      # path now holds something else, and carry on there.
      def restore_if_gone
        current = begin
          identity(File.stat(@path))
        rescue SystemCallError
          nil
        end
        recover(current) unless current == @identity
      end

      def recover(current)
        target = current ? "#{@path}.recovered-#{Process.pid}" : @path
        temp, copy = OutputPath.temporary(target)
        self.class.locked!(copy, target)
        IO.copy_stream(@file, copy, @file.size, 0)
        copy.fsync
        OutputPath.place(temp, target, force: false)
        @file.close
        @file = copy
        @identity = identity(copy.stat)
        what = current ? "replaced by something else; the results continue in #{target}" : "deleted; it was written back"
        warn("ractorbench: warning: #{@path} was #{what} (#{copy.size} bytes kept)")
        @path = target
      rescue SystemCallError, IOError, UsageError => e
        OutputPath.discard(copy, temp) unless copy.equal?(@file)
        raise Failed, "#{@path} was deleted or replaced during the collection and could not be written back: #{e.message}"
      end

      def identity(stat) = [stat.dev, stat.ino]
    end
  end
end

require_relative "marks"
