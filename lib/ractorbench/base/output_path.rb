# frozen_string_literal: true

require "securerandom"
require "tmpdir"
require_relative "errors"

module Ractorbench
  # The rules every command's output path follows. A file is written under
  # a temporary name in the same folder and then put in place: onto a path
  # that does not exist (a hard link, which fails rather than replace), or,
  # with --force, onto a regular file (a rename). A symbolic link, a
  # folder, a device or a pipe is never replaced or written through.
  module OutputPath
    module_function

    # nil, or why path cannot be written to. exists: what to say about an
    # existing regular file without --force.
    def refusal(path, force:, exists: nil)
      stat = File.lstat(path)
      return "#{path} is a symbolic link; ractorbench never writes through or replaces a link, even with --force: give another path" if stat.symlink?
      return "#{path} is a folder; give a file name" if stat.directory?
      return "#{path} is a #{kind(stat)}, not a regular file; ractorbench replaces only regular files, even with --force" unless stat.file?
      return nil if force

      exists || "#{path} already exists; add --force to replace it, or give another path"
    rescue Errno::ENOENT
      nil
    rescue SystemCallError => e
      "cannot write #{path}: #{reason(e)}"
    end

    def check!(path, force:, exists: nil)
      problem = refusal(path, force: force, exists: exists)
      raise UsageError, problem if problem
    end

    # A file to read or resume must be a regular file: a named pipe would
    # keep the reader waiting for a writer for ever, a device or a folder
    # holds no results. (`report` alone reads a pipe already open, as
    # /dev/stdin.)
    def regular!(path, doing)
      stat = File.stat(path)
      raise UsageError, "#{doing} #{path}: it is a #{kind(stat)}, not a regular file" unless stat.file?
    rescue Errno::ENOENT
      raise UsageError, "#{doing} #{path}: no such file"
    rescue SystemCallError => e
      raise UsageError, "#{doing} #{path}: #{reason(e)}"
    end

    # A report's -o, checked before the work: not one of its own inputs.
    def check_output!(path, force:, inputs:)
      same = inputs.find { |input| File.identical?(input, path) }
      raise UsageError, "-o #{path} is #{same}, an input of this report: give another path" if same

      check!(path, force: force)
    end

    # A new file in path's folder for the caller to fill, opened for
    # appending (and reading: a writer may need to copy it).
    def temporary(path)
      temp = File.join(File.dirname(path), ".ractorbench-#{Process.pid}-#{SecureRandom.hex(4)}.tmp")
      [temp, File.open(temp, File::RDWR | File::CREAT | File::EXCL | File::APPEND, 0o644)]
    end

    # A temporary file given up on: closed (what it could not flush is
    # dropped, it is going anyway) and removed.
    def discard(file, temp)
      begin
        file&.close unless file&.closed?
      rescue SystemCallError, IOError
        nil
      end
      File.unlink(temp) if temp && File.exist?(temp)
    end

    # Puts the finished temporary file at path, by the rules above; the
    # temporary name is gone afterwards whatever happened.
    def place(temp, path, force:, exists: nil)
      check!(path, force: force, exists: exists)
      if force && File.file?(path)
        File.chmod(File.stat(path).mode & 0o7777, temp)
        File.rename(temp, path)
      else
        link(temp, path, exists)
      end
    ensure
      File.unlink(temp) if File.exist?(temp)
    end

    def link(temp, path, exists)
      File.link(temp, path)
    rescue Errno::EEXIST
      raise UsageError, exists || "#{path} already exists; add --force to replace it, or give another path"
    rescue Errno::EPERM, Errno::EOPNOTSUPP, Errno::EXDEV
      # A file system without hard links: a rename, after checking again.
      raise UsageError, exists || "#{path} already exists" if File.exist?(path) || File.symlink?(path)

      File.rename(temp, path)
    end

    # An errno's own words, without Ruby's " @ rb_sysopen - path" tail.
    # What went wrong, in words, naming the limit or the disk it ran into:
    # ulimit -f's size for a file too large; for a full disk, the folder
    # written to, said to be TMPDIR when it is on TMPDIR's disk.
    def reason(error, path = nil)
      text = error.message.sub(/ @ [\w:]+/, "").sub(/ - .*\z/m, "")
      case error
      when Errno::EFBIG then "#{text}: the file-size limit (ulimit -f) is #{file_size_limit}"
      when Errno::ENOSPC, Errno::EDQUOT then path ? "#{text} (writing to #{disk(path)})" : text
      else text
      end
    end

    def file_size_limit
      limit = Process.getrlimit(:FSIZE).first
      (limit == Process::RLIM_INFINITY) ? "unlimited" : "#{limit} bytes"
    rescue ArgumentError, NotImplementedError, SystemCallError
      "unknown"
    end

    # The folder of path, named as TMPDIR when it is TMPDIR (or on its disk).
    def disk(path)
      folder = File.dirname(File.expand_path(path))
      tmp = Dir.tmpdir
      return "TMPDIR, #{tmp}" if File.expand_path(tmp) == folder

      (File.stat(folder).dev == File.stat(tmp).dev) ? "#{folder}, on TMPDIR's disk" : folder
    rescue SystemCallError
      folder
    end

    def kind(stat)
      case stat.ftype
      when "characterSpecial", "blockSpecial" then "device"
      when "fifo" then "named pipe"
      when "socket" then "socket"
      when "directory" then "folder"
      else stat.ftype
      end
    end
  end
end
