# frozen_string_literal: true

module Ractorbench
  module Advisor
    # The mechanical fix of one candidate (StaticScan::Candidate) as edits of
    # the user's files, each on one line, so that every line keeps its
    # number: state work changes kept per ractor (`Ractor.current[key]`,
    # set up from the value it is first given), state work only reads made
    # shareable, a define_method block made a shareable proc. When no
    # mechanical fix applies, `why_not` says why (and the manual fix).
    class RactorRewrite
      # file, line, col: where the old text starts; old: the text replaced.
      Edit = Struct.new(:file, :line, :col, :old, :new)

      # The check's way past a C method only the main ractor may call: the
      # main ractor calls it (harness/try/ractor_check.rb). Never in a fix.
      MAIN_CALL = "Ractorbench::Harness::Try::RactorCheck::MainCall"

      attr_reader :edits, :tail, :how, :why_not

      # Edits that only get the check past a problem: not a fix.
      def check_only? = @check_only == true

      def self.for(candidate, sources) = new(candidate, sources).tap(&:build)

      def initialize(candidate, sources)
        @c = candidate
        @sources = sources
        @edits = []
        @tail = []
      end

      def mechanical? = @why_not.nil? && (!@edits.empty? || !@tail.empty?)

      def build
        case @c.kind
        when "ivar" then @c.written? ? per_ractor : shareable_ivar
        when "cvar", "global" then @c.written? ? per_ractor : shareable_copy
        when "constant" then per_ractor
        when "define_method" then shareable_block
        when "c_method" then main_ractor_call
        when "lazy_load" then load_at_load_time
        else @why_not = "no mechanical fix for this"
        end
      end

      private

      # `require "x"` inside a method: the main ractor requires it when the
      # file loads; other ractors skip the call (only the main one may load).
      def load_at_load_time
        return touch_autoload if @c.detail&.autoload

        use = @c.uses.first
        feature = @c.detail&.feature
        return @why_not = "it is not a `require` of a named file" unless use && feature

        text = @sources.fetch(use.file).lines[use.line - 1][use.col..]
        call = text[/\Arequire(?:_relative)?(?:\s+|\s*\()(["'])#{Regexp.escape(feature)}\1\)?/]
        return @why_not = "the require is not written `require \"#{feature}\"`" unless call

        @edits << Edit.new(use.file, use.line, use.col, call, "(#{call} if Ractor.current == Ractor.main)")
        @tail << if @c.detail.relative
          "require_relative #{relative_to_main(File.expand_path(feature, File.dirname(use.file))).inspect}"
        else
          "require #{feature.inspect}"
        end
        @how = "loaded when the file loads, in the main ractor"
      end

      # An autoload: named once at the end of the file, it loads then, in
      # the main ractor.
      def touch_autoload
        @tail << "#{"#{@c.owner}::" unless @c.owner.to_s.empty?}#{@c.detail.autoload} # loads it now, in the main ractor"
        @how = "loaded when the file loads, in the main ractor"
      end

      def relative_to_main(path)
        main = File.dirname(@sources.keys.first)
        path.start_with?("#{main}/") ? path.delete_prefix("#{main}/") : path
      end

      def main_ractor_call
        use = @c.uses.first
        receiver, name = @c.name.split(".")
        @check_only = true
        @why_not = "only the main ractor may call #{@c.name}: call it before the ractors start and pass its result " \
          "in the item, use a Ractor-safe alternative, or use processes"
        @edits << Edit.new(use.file, use.line, use.col, @c.name, "#{MAIN_CALL}.new(#{receiver}, :#{name}).call")
      end

      # Ractor.current[:"Mod::CACHE"], Ractor.current[:"Mod@calls"], Ractor.current[:$count]
      def key
        return :"#{@c.owner}#{@c.name}" unless @c.kind == "constant"

        @c.owner.to_s.empty? ? @c.name.to_sym : :"#{@c.owner}::#{@c.name}"
      end

      def slot = "Ractor.current[#{key.inspect}]"

      def per_ractor
        init = @c.init
        return @why_not = "its value is not written on one line" if init.nil? && @c.kind == "constant"

        @how = "kept per ractor (`#{slot}`)"
        @c.uses.each do |use|
          replacement = per_ractor_use(use, init)
          return @why_not = "`#{@c.name} #{use.op}` is not at the start of its line (#{File.basename(use.file)}:#{use.line})" unless replacement

          @edits << Edit.new(use.file, use.line, use.col, @c.name, replacement)
        end
      end

      # What stands for the name at one use: the value, set up in this
      # ractor from the first value on first use; nil when it cannot be
      # written mechanically.
      def per_ractor_use(use, init)
        case use.access
        when :read, :mutate then init ? "(#{slot} ||= #{init})" : slot
        when :assign then slot
        else
          return slot if use.op == "||=" || init.nil?
          return nil unless starts_line?(use)

          "#{slot} ||= #{init}; #{slot}"
        end
      end

      def starts_line?(use)
        line = @sources.fetch(use.file).lines[use.line - 1].to_s
        line[0, use.col].strip.empty? || line[0, use.col].rstrip.end_with?(";")
      end

      def shareable_ivar
        @how = "made shareable once it is set"
        @tail << "Ractor.make_shareable(#{@c.owner}.instance_variable_get(:#{@c.name}))"
      end

      # Read-only class variables and globals: no ractor but the main one
      # may read them at all, so methods read a shareable copy instead.
      def shareable_copy
        copy = "SHAREABLE_#{@c.name.delete("@$").upcase}"
        value = (@c.kind == "cvar") ? "#{@c.owner}.class_variable_get(:#{@c.name})" : @c.name
        @tail << "#{"#{@c.owner}::" unless @c.owner.to_s.empty?}#{copy} = Ractor.make_shareable(#{value})"
        @how = "read from a shareable copy (#{copy})"
        @c.uses.each { |use| @edits << Edit.new(use.file, use.line, use.col, @c.name, copy) }
      end

      # define_method(:name) { ... } in a module's body: the block's self is
      # the module, so Ractor.make_shareable can make it a proc any ractor
      # may call (outer variables it uses must hold shareable values).
      def shareable_block
        return @why_not = "it is defined outside a module's body, where the block's self is not shareable" unless @c.detail.in_body

        use = @c.uses.first
        lines = @sources.fetch(use.file).lines
        text = lines[use.line - 1]
        head = text[use.col..][/\Adefine_(?:singleton_)?method\s*(?:\(([^()]*)\)|\s+([^{]*?))\s*(do|\{)/]
        return @why_not = "the call is not written `define_method(name) do`" unless head

        m = Regexp.last_match
        opener = m[3]
        name = head[/\Adefine_\w+/]
        @edits << Edit.new(use.file, use.line, use.col, head, "#{name}(#{(m[1] || m[2]).strip}, &Ractor.make_shareable(proc #{opener}")
        close = closing(lines, use.line - 1, text[/\A\s*/].size, opener, use.col + head.size)
        return @why_not = "the end of its block was not found" unless close

        @edits << Edit.new(use.file, close[0], close[1], close[2], "#{close[2]}))")
        @how = "its block made a shareable proc"
      end

      # [line, col, token] of the block's closing `}` or `end`: on the same
      # line for a one-line block, else the first line below indented as the
      # call is.
      def closing(lines, index, indent, opener, after)
        token = (opener == "{") ? "}" : "end"
        same = lines[index].rindex(token)
        return [index + 1, same, token] if same && same >= after && opener == "{"

        (index + 1...lines.size).each do |i|
          line = lines[i]
          next if line.strip.empty?
          return nil if line[/\A\s*/].size < indent
          return [i + 1, indent, token] if line[/\A\s*/].size == indent && line.strip.start_with?(token)
        end
        nil
      end
    end
  end
end
