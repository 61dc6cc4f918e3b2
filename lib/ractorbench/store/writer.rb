# frozen_string_literal: true

require "fileutils"
require "json"
require "time"
require_relative "json_safe"
require_relative "../base/output_path"
require_relative "shadow_copy"
require_relative "bounded_lines"
require_relative "lock_holder"
require_relative "../base/errors"

module Ractorbench
  module Store
    # Writes a results file: the header whole before any run (a temporary
    # file put in place, so no kill or full disk leaves a file that can be
    # neither resumed nor replaced), then one line per finished run, flushed
    # and synced before the next run starts. Before each run it writes a
    # "started" mark, so --resume can tell a run during which the collector
    # died (Store::Marks). The file is locked (flock) while it is written: a
    # second writer is refused. The collector owns its file: every byte it
    # writes also goes to a copy no run can reach by a path (ShadowCopy), and
    # before each line the file is looked at again; one a run truncated,
    # overwrote, replaced or deleted (or whose folder it removed) is written
    # back whole from that copy, with a warning saying what happened.
    class Writer
      # A file system error after the collection began: the file is left as
      # it was before the failed write, and can be resumed. path: where the
      # finished runs are now (nil: lost).
      class Failed < StandardError
        attr_reader :path

        def initialize(message, path: nil)
          @path = path
          super(message)
        end
      end

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
        raise UsageError, "cannot write results to #{path}: #{OutputPath.reason(e, path)}"
      end

      # What to say when path is already there, without --force.
      def self.exists_message(path)
        incomplete = Marks.incomplete_header(path) if File.file?(path)
        incomplete || "#{path} already exists; give another -o (--force replaces it), or finish it if it was stopped: " \
          "#{Printable.command("ractorbench", "run", "--resume", path)}"
      end

      # run --resume PATH: the file locked for this collector alone. Call
      # #drop_partial_line once it is known to be a results file.
      def self.resume(path)
        OutputPath.regular!(path, "cannot resume")
        problem = Marks.incomplete_header(path)
        raise UsageError, problem if problem

        file = File.open(path, File::RDWR | File::APPEND)
        locked!(file, path)
        # A file to resume holds the marks of the collection before (that
        # one stopped, or could not take them out): #finish takes them out.
        new(path, file).tap(&:marked!)
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

        raise UsageError, LockHolder.refusal(file, path)
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
        @shadow = ShadowCopy.new(file)
        @signature = signature(file.stat)
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
          return cut_to(start + newline + 1) if newline

          at = start
        end
      end

      # The write-ahead mark of a run about to start. Flushed, not synced: it
      # is for a collector that dies, not for a machine that does.
      def started(id, seq)
        @marked = true
        line({"type" => "started", "id" => id, "seq" => seq, "at" => Time.now.utc.iso8601(3)}, sync: false)
      end

      # The run in flight was stopped by a signal (Ctrl-C, SIGTERM): run it
      # again on --resume, it did nothing wrong, unless the signal came to
      # the collector alone (suspect: Collector), which a run that
      # does it again is failed for.
      # why: what stopped it when no signal did (the mark is then written
      # even between runs, id nil, so the file says why it stopped).
      def interrupted(id, suspect: false, why: nil)
        @marked = true
        mark = {"type" => "interrupted", "id" => id}
        mark["suspect"] = true if suspect
        mark["why"] = why if why
        line(mark, sync: false)
      end

      def marked! = @marked = true

      def append(record)
        line(record, sync: true)
      end

      # The collection is complete: the marks have done their job, and the
      # file becomes what it always was, a header and one line per run (a
      # copy without them put in place). If that cannot be done (a full
      # disk, an append-only file) the marks stay, readers skip them, and
      # Failed says so: the collection did not end as it should.
      def finish
        intact!
        return close unless @marked

        temp, copy = OutputPath.temporary(@path)
        @file.rewind
        @file.binmode
        BoundedLines.each_piece(@file) do |piece, at_start|
          copy.write(piece) unless at_start && piece.start_with?('{"type":"started"', '{"type":"interrupted"')
        end
        copy.flush
        copy.fsync
        copy.close
        File.rename(temp, @path)
      rescue SystemCallError, IOError => e
        OutputPath.discard(copy, temp)
        raise Failed.new("every run is recorded in #{@path}, but the marks written as the collection went could not " \
          "be taken out of it (#{OutputPath.reason(e)}#{replace_refused(e)}); reports read it as it is, skipping them", path: @path)
      ensure
        close
      end

      def close
        @file.close unless @file.closed?
        @shadow.close
      end

      # Looks at the file again: one a run damaged is written back whole
      # from the copy (or Failed, if it cannot be, saying where the runs are).
      def intact!
        stat = begin
          File.stat(@path)
        rescue SystemCallError
          nil
        end
        return recover(stat ? :replaced : :deleted) unless stat && identity(stat) == @identity
        return if signature(stat) == @signature
        return @signature = signature(stat) if @shadow.same_as?(@file) # touched, not changed

        recover(:changed)
      end

      private

      # Why a file cannot be replaced though it can be written: Linux's
      # append-only and immutable attributes (chattr +a, +i).
      def replace_refused(error)
        return "" unless error.is_a?(Errno::EPERM)

        ": the file may be append-only or immutable, #{Printable.command("lsattr", @path)} shows it"
      end

      # One line, or nothing: a failed write is cut back off, so the file
      # stays resumable.
      def line(record, sync:)
        intact!
        size = @file.size
        data = JSON.generate(JsonSafe.record(record)) + "\n"
        begin
          self.class.write_all(@file, data)
          @file.fsync if sync
        rescue SystemCallError, IOError => e
          cut_back(size)
          raise Failed.new("cannot write to #{@path}: #{OutputPath.reason(e, @path)}; the runs recorded before it are kept in " \
            "#{@path}", path: @path)
        end
        @shadow.append(data)
        said_in_memory
        @signature = signature(@file.stat)
      end

      # The copy left a full TMPDIR for memory: said once, naming it.
      def said_in_memory
        return if @said_in_memory || !@shadow.moved

        @said_in_memory = true
        warn("ractorbench: warning: the collector's copy of #{@path} no longer fits in TMPDIR (#{Dir.tmpdir}: " \
          "#{OutputPath.reason(@shadow.moved)}); it is kept in memory from here on")
      rescue SystemCallError, IOError
        nil
      end

      def cut_back(size)
        @file.truncate(size)
      rescue SystemCallError, IOError
        nil
      end

      def cut_to(size)
        @file.truncate(size)
        @shadow.truncate(size)
        @signature = signature(@file.stat)
      end

      # The file at the path is not what this collector wrote: the copy goes
      # back in its place (the folder made again if it was removed; a file
      # that replaced it moved aside, not lost), locked, and the collection
      # carries on there.
      def recover(how)
        held = "the header and #{Plural.count(@shadow.runs, "finished run")}, #{@shadow.size} bytes"
        what = damage(how)
        made = make_room(how)
        temp, copy = OutputPath.temporary(@path)
        self.class.locked!(copy, @path)
        @shadow.write_to(copy)
        copy.fsync
        File.rename(temp, @path)
        @file.close
        @file = copy
        @identity = identity(copy.stat)
        @signature = signature(copy.stat)
        warn("ractorbench: warning: #{@path} #{what}#{"; the folder was made again" if made}; it was written back whole " \
          "from the collector's copy (#{held})")
      rescue SystemCallError, IOError, UsageError => e
        OutputPath.discard(copy, temp) unless copy.equal?(@file)
        rescued = rescue_copy
        where = rescued ? "#{held} are in #{rescued}" : "#{held} could not be written anywhere and are lost"
        raise Failed.new("#{@path} #{what}, and could not be written back (#{OutputPath.reason(e, @path)}); #{where}", path: rescued)
      end

      # What happened to the file, in words.
      def damage(how)
        case how
        when :changed
          size = File.size(@path)
          (size < @shadow.size) ? "was cut to #{size} bytes during the collection" : "was overwritten during the collection"
        when :replaced
          return "was replaced by a folder during the collection" if File.directory?(@path)

          "was replaced during the collection (what replaced it is now #{aside})"
        else
          folder = File.dirname(@path)
          File.directory?(folder) ? "was deleted" : "and its folder #{folder} were deleted during the collection"
        end
      rescue SystemCallError
        "was changed during the collection"
      end

      # Makes the path writable again: a replacement moved aside, a removed
      # folder made again (true then).
      def make_room(how)
        return File.rename(@path, aside) && false if how == :replaced && !File.directory?(@path)
        return false if how != :deleted || File.directory?(File.dirname(@path))

        FileUtils.mkdir_p(File.dirname(@path))
        true
      end

      def aside = "#{@path}.replaced-#{Process.pid}"

      # Where the runs go when the path cannot hold them: beside it, else
      # in the temporary folder; nil if nowhere.
      def rescue_copy
        [File.dirname(@path), Dir.tmpdir].each do |folder|
          target = File.join(folder, "#{File.basename(@path)}.recovered-#{Process.pid}")
          File.open(target, File::WRONLY | File::CREAT | File::EXCL, 0o644) do |file|
            @shadow.write_to(file)
            file.fsync
          end
          return target
        rescue SystemCallError, IOError
          next
        end
        nil
      end

      # Size, modification and change times: any write to the file moves them.
      def signature(stat) = [stat.size, stat.mtime, stat.ctime]

      def identity(stat) = [stat.dev, stat.ino]
    end
  end
end

require_relative "marks"
require_relative "../base/plural"
require_relative "../base/printable"
