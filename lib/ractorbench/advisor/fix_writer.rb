# frozen_string_literal: true

require_relative "paths"
require_relative "../base/errors"
require_relative "../base/atomic_file"

module Ractorbench
  module Advisor
    # Writes `try --fix`'s copy: the user's file with every mechanical fix
    # (FixedCopy) as FILE.ractor_fixed.rb beside it, or at --fix-to PATH; a
    # file of theirs it requires that the fix changed goes beside that file
    # the same way, and the copy requires the fixed one. The user's files
    # are never written.
    class FixWriter
      SUFFIX = ".ractor_fixed.rb"
      MARK = "# A copy of %s with the mechanical fixes of `ractorbench try --fix`; the original is unchanged."

      attr_reader :path, :written

      def self.default_path(file) = file.sub(/(\.rb)?\z/, SUFFIX)

      # copy: FixedCopy; file: the user's file; to: --fix-to, or nil.
      def initialize(copy, file, to: nil, force: false)
        @copy = copy
        @file = File.expand_path(file)
        @path = File.expand_path(to || self.class.default_path(file))
        @chosen = !to.nil?
        @force = force
      end

      # {written path => original path}
      def call
        sources = @copy.sources(check: false)
        sources[@file] ||= File.read(@file)
        targets = sources.keys.to_h { |original| [original, (original == @file) ? @path : self.class.default_path(original)] }
        targets.each_value { |target| refuse!(target, sources.keys) }
        @written = targets.to_h do |original, target|
          text = requiring_fixed(sources[original], original, target, targets)
          text += format("#{MARK}\n", File.basename(original))
          AtomicFile.write(target, text, force: true)
          [target, original]
        end
      end

      private

      # Never one of the user's files; an existing file only when it is a
      # fixed copy this command wrote (or with --force at --fix-to).
      def refuse!(target, originals)
        short = Paths.short(target)
        raise UsageError, "--fix-to #{short}: that is your own file; --fix never writes over it: give another path" if originals.include?(target)
        return unless File.exist?(target)
        raise UsageError, "--fix-to #{short}: not a regular file" unless File.file?(target)
        return if File.read(target).include?("mechanical fixes of `ractorbench try --fix`")
        return if @force && @chosen

        raise UsageError, "#{short} exists and is not a copy written by --fix: remove it, or give --fix-to PATH (--force to replace it)"
      end

      # require_relative lines of a written file point at the file they
      # meant from where it now is: a fixed copy when there is one.
      def requiring_fixed(text, original, target, targets)
        text.gsub(/^(\s*require_relative\s*\(?\s*)(["'])([^"']+)\2/) do
          head, quote, feature = Regexp.last_match.captures
          meant = File.expand_path(feature.end_with?(".rb") ? feature : "#{feature}.rb", File.dirname(original))
          now = targets.fetch(meant, meant)
          next Regexp.last_match(0) if now == meant && File.dirname(target) == File.dirname(original)

          "#{head}#{quote}#{relative(now, File.dirname(target)).delete_suffix(".rb")}#{quote}"
        end
      end

      def relative(path, dir)
        require "pathname"
        Pathname.new(path).relative_path_from(Pathname.new(dir)).to_s
      end
    end
  end
end
