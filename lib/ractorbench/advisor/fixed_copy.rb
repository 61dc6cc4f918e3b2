# frozen_string_literal: true

module Ractorbench
  module Advisor
    # The user's files with mechanical fixes (RactorRewrite) applied: every
    # edit stays on its line, so a line number in the copy is the same line
    # in the user's file; lines that must run once everything is defined go
    # at the end of the user's file (before __END__). The check loads it in
    # place of the files (its own copy); `try --fix` writes it out.
    class FixedCopy
      MARK = "# added by `ractorbench try --fix`: these need everything above to be defined"

      attr_reader :rewrites

      # originals: {path => text}; main: the user's file.
      def initialize(originals, main)
        @originals = originals
        @main = main
        @rewrites = []
        @lines = []
      end

      def add(rewrite)
        @rewrites << rewrite
        self
      end

      # Lines for the end of the user's file (constants made shareable,
      # code loaded at load time) found by the check itself.
      def add_lines(lines)
        @lines |= lines
        self
      end

      def tail = (fixes.flat_map(&:tail) + @lines).uniq

      # The rewrites that are fixes, not only the check's way past a problem.
      def fixes = @rewrites.reject(&:check_only?)

      # {path => text} of every file changed (the user's file always, once
      # there is anything to fix); check: with the check's own bypasses too.
      def sources(check: true)
        edits = (check ? @rewrites : fixes).flat_map(&:edits).group_by(&:file)
        changed = @originals.filter_map do |path, text|
          next if !edits[path] && (path != @main || tail.empty?)

          lines = text.lines
          edits.fetch(path, []).sort_by { |e| -e.col }.each do |e|
            line = lines[e.line - 1]
            lines[e.line - 1] = line[0, e.col] + e.new + line[(e.col + e.old.size)..] if line[e.col, e.old.size] == e.old
          end
          body = lines.join
          [path, (path == @main) ? with_tail(body) : body]
        end
        changed.to_h
      end

      private

      def with_tail(text)
        return text if tail.empty?

        code, marker, data = text.partition(/^__END__\r?$/)
        code += "\n" unless code.empty? || code.end_with?("\n")
        "#{code}#{MARK}\n#{tail.join("\n")}\n#{marker}#{data}"
      end
    end
  end
end
