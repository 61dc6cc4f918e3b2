# frozen_string_literal: true

require "ripper"
require "set"

module Ractorbench
  module Advisor
    # Reads the user's file, and the files of theirs it loads with
    # require_relative, for what may stop work inside a ractor: module and
    # class instance variables, class variables and globals used in methods,
    # constants that methods use, define_method blocks, code loaded inside a
    # method (require, autoload), methods called on library modules (C
    # methods may not be Ractor-safe). These are candidates only: the check
    # in a real ractor confirms each one, and the positions found here are
    # what the check's copy and `try --fix` rewrite.
    #
    # Ripper, from Ruby's standard library, on every Ruby the driver runs on
    # (3.1 has no Prism): the driver parses, so the same code gives the same
    # candidates whichever Ruby is tried.
    class StaticScan
      # Globals every ractor has its own of: no candidate.
      RACTOR_LOCAL_GLOBALS = %w[$stdout $stderr $stdin $0 $PROGRAM_NAME $~ $_ $! $@ $; $, $/ $\\ $DEBUG $VERBOSE $-w $-v
        $LOAD_PATH $LOADED_FEATURES $: $" $* $$ $?].freeze
      MUTATORS = /\A(?:<<|push|store|merge!|delete|clear|concat|update|add|insert|unshift|replace|append|prepend|\w+!)\z/
      DEFINE = %w[define_method define_singleton_method].freeze
      # A method called on these is Ruby's own and Ractor-safe: no candidate.
      SAFE_RECEIVERS = %w[Ractor Math Integer Float String Array Hash Struct Data Comparable Kernel Marshal JSON Time Set
        Range Symbol Rational Complex Process File Dir IO Thread Fiber Random Digest].freeze

      # One use of a name inside a method: line and column of the name,
      # how the method uses it (read, assign, opassign, mutate), the
      # assignment's operator, and whether the name starts its line.
      Use = Struct.new(:file, :line, :col, :access, :op, :method, keyword_init: true)
      # What a candidate found by its call says of itself: a lazy load's
      # feature (and whether require_relative loads it) or the constant it
      # autoloads, whether a define_method is in a module's body (not in a
      # method, not called on an object), a library call's receiver.
      Detail = Struct.new(:feature, :relative, :autoload, :in_body, :receiver, keyword_init: true)
      # One candidate: kind (ivar, cvar, global, constant, define_method,
      # lazy_load, c_method), name, owner (the module it belongs to),
      # where it is defined and its value there (one line), its uses, and
      # its Detail (nil for a variable or a constant).
      Candidate = Struct.new(:kind, :name, :owner, :file, :line, :init, :uses, :detail, keyword_init: true) do
        def at = "#{file}:#{line}"

        def written? = uses.any? { |u| u.access != :read }

        def to_h = super.merge(uses: uses.map(&:to_h))
      end

      attr_reader :files, :candidates

      def initialize(file)
        @root = File.dirname(File.expand_path(file))
        @files = []
        @definitions = {}
        @uses = Hash.new { |h, k| h[k] = [] }
        @others = []
        @modules = Set.new
        scan(File.expand_path(file))
        @candidates = build
      end

      # The text of each file read, by path.
      def sources = @files.to_h { |f| [f, File.read(f)] }

      def parse_ok?(text) = !Ripper.sexp(text).nil?

      private

      def scan(path)
        return if @files.include?(path) || !File.file?(path)

        @files << path
        text = File.read(path)
        @lines = text.lines
        @path = path
        tree = Ripper::SexpBuilderPP.new(text, path).parse
        walk(tree, [], nil) if tree
        @requires_here&.each { |r| scan(r) }
      rescue SystemCallError, IOError, EncodingError, NoMethodError, TypeError
        # A shape of code this reading does not know: its candidates so far
        # stand, and the check in a ractor still finds what it refuses.
        nil
      end

      # scope: enclosing module names; method: the method's name inside a
      # def, else nil (module body, top level).
      def walk(node, scope, method)
        return unless node.is_a?(Array)
        return node.each { |n| walk(n, scope, method) } unless node.first.is_a?(Symbol)

        case node.first
        when :module, :class
          name = const_name(node[1])
          @modules << name.to_s.split("::").last
          body = (node.first == :class) ? node[3] : node[2]
          walk(node[2], scope, method) if node.first == :class
          return inside(class_body: node.first == :class) { walk(body, scope + [name].compact, nil) }
        when :sclass
          return inside(class_body: false) { walk(node[2], scope, method) }
        when :def
          # An instance method of a class: its @names are each object's own.
          # A module's (module_function, extend self) are the module's.
          return inside(instance_method: @class_body) { walk(node[3], scope, node[1][1]) }
        when :defs
          return walk(node[5], scope, node[3][1])
        when :assign, :opassign
          return assignment(node, scope, method)
        when :var_ref
          use(node[1], scope, method, :read)
        when :binary
          return mutation(node[1], scope, method, node[3], node[2].to_s) if node[2] == :<<
        when :call
          mutated = node[3].is_a?(Array) && node[3][1].to_s.match?(MUTATORS)
          return mutation(node[1], scope, method, node[3], node[3][1]) if mutated

          library_call(node, scope, method)
        when :command
          command(node, scope, method)
        when :method_add_arg
          command([:command, node[1][1], node[2]], scope, method) if node[1].is_a?(Array) && node[1].first == :fcall
        when :method_add_block
          return if define_method(node, scope, method)
        end
        node.drop(1).each { |n| walk(n, scope, method) }
      end

      def inside(class_body: @class_body, instance_method: @instance_method)
        saved = [@class_body, @instance_method]
        @class_body = class_body
        @instance_method = instance_method
        yield
      ensure
        @class_body, @instance_method = saved
      end

      def assignment(node, scope, method)
        target = node[1]
        op = (node.first == :opassign) ? node[2][1] : "="
        if target.first == :var_field && target[1]
          token = target[1]
          if method
            use(token, scope, method, (op == "=") ? :assign : :opassign, op)
          elsif %i[@ivar @cvar @gvar @const].include?(token.first)
            define(token, scope, node)
          end
        elsif %i[aref_field field].include?(target.first)
          mutation(target[1], scope, method, nil, op)
          target.drop(2).each { |n| walk(n, scope, method) }
        else
          walk(target, scope, method)
        end
        walk(node.last, scope, method)
      end

      def mutation(receiver, scope, method, rest, _op)
        if receiver.is_a?(Array) && receiver.first == :var_ref
          use(receiver[1], scope, method, :mutate)
        else
          walk(receiver, scope, method)
        end
        walk(rest, scope, method)
      end

      def use(token, scope, method, access, op = nil)
        return unless method && token.is_a?(Array)

        kind = {:@ivar => "ivar", :@cvar => "cvar", :@gvar => "global", :@const => "constant"}[token.first]
        return unless kind
        return if kind == "global" && RACTOR_LOCAL_GLOBALS.include?(token[1])
        return if kind == "ivar" && @instance_method

        line, col = token[2]
        @uses[[kind, owner(kind, scope), token[1]]] << Use.new(file: @path, line: line, col: col, access: access, op: op,
          method: method)
      end

      def define(token, scope, node)
        kind = {:@ivar => "ivar", :@cvar => "cvar", :@gvar => "global", :@const => "constant"}[token.first]
        line, col = token[2]
        text = @lines[line - 1].to_s
        init = text[col..][/\A#{Regexp.escape(token[1])}\s*(?:\|\|)?=\s*(.*?)\s*(?:#.*)?\n?\z/, 1]
        one_line = init && !init.empty? && Ripper.sexp(init) && !init.match?(/\b(do|\{)\s*(\|[^|]*\|)?\s*\z/)
        @definitions[[kind, (kind == "constant") ? scope.join("::") : owner(kind, scope), token[1]]] ||=
          {file: @path, line: line, init: one_line ? init : nil, shareable: shareable_literal?(node.last, init)}
      end

      # Whose the variable is: a global is nobody's; an instance or class
      # variable belongs to the module whose body or method uses it.
      def owner(kind, scope) = (kind == "global") ? nil : scope.join("::")

      def command(node, scope, method)
        name = node[1].is_a?(Array) ? node[1][1] : nil
        line, col = node[1][2] if node[1].is_a?(Array)
        case name
        when "require", "require_relative"
          feature = string_arg(node[2])
          if method
            @others << Candidate.new(kind: "lazy_load", name: "#{name} #{feature.inspect}", file: @path, line: line,
              uses: [Use.new(file: @path, line: line, col: col, access: :read, method: method)],
              detail: Detail.new(feature: feature, relative: name == "require_relative"))
          elsif name == "require_relative" && feature
            (@requires_here ||= []) << File.expand_path(feature.end_with?(".rb") ? feature : "#{feature}.rb", File.dirname(@path))
          end
        when "autoload"
          constant = node[2].flatten.each_index.filter_map { |i| node[2].flatten[i + 1] if node[2].flatten[i] == :@const }.first
          @others << Candidate.new(kind: "lazy_load", name: "autoload #{constant}", owner: scope.join("::"), file: @path,
            line: line, uses: [], detail: Detail.new(autoload: constant))
        end
      end

      def string_arg(args)
        found = nil
        dig = lambda do |n|
          next unless n.is_a?(Array) && !found

          (n.first == :@tstring_content) ? found = n[1] : n.each { |c| dig.call(c) }
        end
        dig.call(args)
        found
      end

      def define_method(node, scope, method)
        call = node[1]
        call = call[1] if call.first == :method_add_arg
        ident = case call.first
        when :fcall, :command then call[1]
        when :call, :command_call then call[3]
        end
        return unless ident.is_a?(Array) && DEFINE.include?(ident[1])

        line, col = ident[2]
        name = @lines[line - 1].to_s[col..][/\A\w+\s*\(?\s*(?::|["'])(\w+[?!=]?)/, 1]
        explicit = %i[call command_call].include?(call.first)
        @others << Candidate.new(kind: "define_method", name: name.to_s, owner: scope.join("::"), file: @path, line: line,
          uses: [Use.new(file: @path, line: line, col: col, access: :read, method: method)],
          detail: Detail.new(in_body: !scope.empty? && !method && !explicit))
        walk(node[1], scope, method)
        walk(node[2], scope, name.to_s) # the block is the method's body
        true
      end

      # Receiver.method(...) on a constant this project does not define:
      # a library's method, maybe a C method that is not Ractor-safe.
      def library_call(node, scope, method)
        return unless method && node[1].is_a?(Array) && node[1].first == :var_ref && node[1][1].first == :@const
        return unless node[3].is_a?(Array) && node[3].first == :@ident

        receiver = node[1][1][1]
        return if SAFE_RECEIVERS.include?(receiver)

        line, col = node[1][1][2]
        @others << Candidate.new(kind: "c_method", name: "#{receiver}.#{node[3][1]}", file: @path, line: line,
          uses: [Use.new(file: @path, line: line, col: col, access: :read, method: method)], detail: Detail.new(receiver: receiver))
      end

      def const_name(ref)
        flat = ref.flatten
        names = flat.each_index.filter_map { |i| flat[i + 1] if flat[i] == :@const }
        names.empty? ? nil : names.join("::")
      end

      # Values Ruby can share as written: numbers, symbols, nil, true,
      # false, frozen string literals, and what Ractor.make_shareable or a
      # Data/Struct/Class definition returns.
      def shareable_literal?(value, text)
        return true if text.to_s.match?(/\A(Ractor\.make_shareable|Data\.define|Struct\.new|Class\.new|Module\.new)\b/)
        return true if text.to_s.match?(/\A(-?\d[\d_.e]*|:\w+|nil|true|false)\z/)

        value.is_a?(Array) && %i[@int @float symbol_literal].include?(value.first)
      end

      # A name used in methods becomes a candidate; a constant only when
      # the project defines it with a value that may be unshareable.
      def build
        found = @uses.filter_map do |(kind, owner, name), uses|
          definition = definition_of(kind, owner, name)
          next if kind == "constant" && (!definition || definition[:shareable])

          owner = definition[:owner] if definition&.key?(:owner)
          Candidate.new(kind: kind, name: name, owner: owner, file: definition&.fetch(:file), line: definition&.fetch(:line),
            init: definition&.fetch(:init), uses: uses)
        end
        # A method of the project's own modules is no library's.
        others = @others.reject { |c| c.kind == "c_method" && @modules.include?(c.detail.receiver) }
        (found + others).sort_by { |c| [c.file || c.uses.first.file, c.line || c.uses.first.line] }
      end

      # A bare constant is looked up in its scope and each enclosing one,
      # as Ruby does.
      def definition_of(kind, owner, name)
        return @definitions[[kind, owner, name]] unless kind == "constant"

        parts = owner.to_s.split("::")
        parts.size.downto(0) do |n|
          found = @definitions[[kind, parts.first(n).join("::"), name]]
          return found.merge(owner: parts.first(n).join("::")) if found
        end
        nil
      end
    end
  end
end
