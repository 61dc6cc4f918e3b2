# frozen_string_literal: true

require_relative "paths"
require_relative "finding"
require_relative "problem_facts"

module Ractorbench
  module Advisor
    # One problem the check met running work inside a ractor (see
    # harness/try/ractor_pass.rb), in the user's terms: what, where in their
    # code, why, and the fix. A fix the check applied itself (a constant made
    # shareable, code loaded at load time) is left to the combined fix
    # (RactorFix), which was checked on a copy of the file.
    class RactorProblem
      MUTATES = '\s*(?:\[[^\]]*\]\s*(?:\|\||&&|[-+*\/])?=(?!=)|<<|\.(?:push|store|merge!|delete|clear|concat|update|add|insert|unshift|replace|\w+!))'
      CONSTANT_WHY = "a ractor other than the main one may only read constants whose values are shareable (deeply frozen)"
      LOADING_WHY = "on this Ruby only the main ractor may load code (require, autoload), and work first used it inside a ractor"

      attr_reader :headline

      def initialize(facts, preflight)
        @facts = facts
        @preflight = preflight
        @error = facts.error || ErrorFacts.new
        @message = @error.message.to_s
        @headline = "not Ractor-safe"
      end

      # Whether the combined, checked fix covers this problem.
      def remedied? = !@facts.remedy.nil?

      def finding
        found = problem_finding
        return found unless @facts.mechanical && found.fix

        found.fix = "#{found.fix}; `ractorbench try --fix` does it in a copy: #{@facts.mechanical}"
        found
      end

      private

      def problem_finding
        case @facts.kind || @facts.stage
        when "item", "result" then copy(@facts.stage)
        when "differs" then differs
        when "constant" then constant(@facts.constant || ConstantFacts.new(name: @facts.named))
        when "lazy_load" then lazy_load
        when "crashed" then crashed
        else raised
        end
      end

      def build(what:, why:, fix:, where: @facts.where, source: @facts.source)
        Finding.new(what: what, where: where || @facts.work_location, source: where ? source : @facts.work_source,
          why: why, fix: fix)
      end

      def library = @facts.library

      def raised
        case @message
        when /constant ([A-Z][\w:]*)/ then constant(@facts.constant || ConstantFacts.new(name: Regexp.last_match(1)))
        when /global variables? (\$\S+)/ then global(Regexp.last_match(1))
        when /can not get unshareable values from instance variables/ then class_ivar_get
        when /can not set instance variables/ then class_ivar_set
        when /class variables/ then class_variable
        when /un-shareable Proc/ then proc_method
        when /outer variables?\s*\(([^)]*)\)/ then captured(Regexp.last_match(1))
        else other
        end
      end

      def constant(info)
        name = info.name
        kind = if info.class_name
          "#{Finding.a(info.class_name)}, #{info.frozen ? "frozen, but what it holds is not" : "not frozen"}"
        else
          "not shareable"
        end
        build(what: "constant #{name} (#{kind})#{origin(info)}", why: CONSTANT_WHY, fix: constant_fix(info))
      end

      # Where the constant lives: the user's file, or a library the user
      # cannot (and should not) edit.
      def origin(info)
        at = info.defined_at && Paths.short(info.defined_at)
        if info.library
          lib = (info.library == "ruby") ? "Ruby itself" : "the #{info.library} library"
          ", of #{lib}#{" (#{File.basename(at)})" if at}#{gem_named(info.gem)}#{reader(info)}"
        elsif at
          ", defined at #{at}"
        else
          ""
        end
      end

      # Which library code read it, when that is not the user's line.
      def reader(info)
        in_lib = @facts.raised_in
        in_lib ? ", read by #{File.basename(in_lib)}" : ""
      end

      def constant_fix(info)
        short = info.constant || info.name.to_s.split("::").last
        changed = @facts.changed_by_work
        return nil if remedied?
        return changed_fix(info, short, changed) if changed
        return unshareable_fix(info, short) if @facts.shareable_error
        return mutated_fix(info, short) if @facts.source.to_s.match?(/\b#{Regexp.escape(short)}#{MUTATES}/)

        expression = info.expression || info.name
        if info.library
          "freeze it from your file once the library is loaded: `Ractor.make_shareable(#{expression})` at the end of " \
            "your file (no edit to the library), or use processes"
        else
          "make it shareable once it is complete: `Ractor.make_shareable(#{expression})` after the code that fills " \
            "it (at the end of the file is always late enough)"
        end
      end

      def changed_fix(info, short, changed)
        # Said only when work changes it at a line other than the one shown.
        at = (changed.where && changed.where != @facts.where) ? " (at #{Paths.short(changed.where)})" : ""
        if info.library
          "the #{info.library} library changes it while work runs#{at}: this library is not Ractor-safe: use processes"
        else
          "work changes it#{at}, and no ractor may change a value another can see: " \
            "#{mutated_fix(info, short).sub(/\A.*?: /, "")}"
        end
      end

      def mutated_fix(info, short)
        "#{Finding.a(info.class_name || "value")} that work changes cannot be shared by ractors: keep one per ractor " \
          "(`#{local(short)} = (Ractor.current[:#{local(short)}] ||= {})`), or pass what work needs in the item"
      end

      def unshareable_fix(info, short)
        if info.library
          "#{Finding.a(info.class_name)} can never be shared between ractors, and the #{library || info.library} " \
            "library reads it on this path: call the library another way in work, or use processes (this use of " \
            "the library is not Ractor-safe)"
        elsif info.class_name == "Proc"
          "turn the proc into a method (`def self.#{local(short)}(...)`)#{shareable_proc_hint}"
        else
          "it holds what can never be shared (#{@facts.shareable_error.sub(/\A[\w:]+: /, "")}): keep one per " \
            "ractor (`Ractor.current[:#{local(short)}] ||= ...`), or pass what work needs in the item"
        end
      end

      def lazy_load
        lazy = @facts.lazy || LazyFacts.new
        remedy = @facts.remedy || LoadRemedy.new
        loader = lazy.loader && Paths.short(lazy.loader).sub(/\A.*\//, "")
        what = if remedy.kind == "require" || (lazy.require && !remedy.kind)
          "`require #{lazy.require.inspect}` inside work"
        elsif (names = remedy.constants || [lazy.autoload].compact).any?
          "#{names.join(", ")}, loaded on first use#{" (#{loader})" if loader}"
        else
          "code loaded on first use#{" (#{loader})" if loader}"
        end
        fix = remedied? ? nil : "load it at load time: require what work uses at the top of the file, and touch " \
          "once there a constant that loads itself on first use (e.g. `Digest::SHA256`)"
        build(what: what, why: LOADING_WHY, fix: fix)
      end

      def crashed
        build(what: "the Ruby process running work inside a ractor #{@facts.how}", where: nil,
          why: "a C extension (or Ruby itself) failed inside a ractor",
          fix: "this code is not Ractor-safe: use processes")
      end

      def global(name)
        if library
          return build(what: "the #{library} library reads the global variable #{name} (#{in_library}#{gem_named(@facts.gem)})",
            why: "only the main ractor may read or write global variables",
            fix: "the #{library} library is not Ractor-safe on this Ruby: use processes (or call it in a way that " \
                 "avoids that code)")
        end
        build(what: "global variable #{name}#{set_at}", why: "only the main ractor may read or write global variables",
          fix: "pass the value in the item, or copy it once into a constant made shareable " \
               "(`LIMIT = Ractor.make_shareable(#{name})`); for per-worker state use `Ractor.current[:name]`")
      end

      # Whether the failing line assigns to the name or changes what it holds.
      def changes?(name)
        name && @facts.source.to_s.match?(/#{Regexp.escape(name)}(?:\s*(?:[-+*\/%|&]|\|\||&&)?=(?!=)|#{MUTATES})/)
      end

      # ", from the gem csv 3.3.5": the version a problem inside a gem is in.
      def gem_named(gem) = gem ? ", from the gem #{gem}" : ""

      def in_library = File.basename(@facts.raised_in.to_s)

      def class_ivar_get
        return library_state("reads an instance variable of a class or module") if library

        ivar = ivars.first
        what = ivar ? "#{ivar.name} of #{ivar.owner} (#{Finding.a(ivar.class_name)})#{set_at}" : "an instance variable of a class or module"
        mutated = ivar && @facts.source.to_s.match?(/#{Regexp.escape(ivar.name)}#{MUTATES}/)
        fix = if mutated
          "state that work changes cannot live on a module: keep it per ractor " \
            "(`Ractor.current[:#{ivar.name.delete("@")}] ||= {}`) or pass it in the item"
        else
          "make the value shareable where it is set: `#{ivar ? ivar.name : "@value"} = Ractor.make_shareable(...)`"
        end
        build(what: what, fix: fix,
          why: "other ractors may read a module's instance variables only when they hold shareable (deeply frozen) values")
      end

      def class_ivar_set
        return library_state("sets an instance variable of a class or module") if library

        ivar = ivars.first
        build(what: ivar ? "#{ivar.name} of #{ivar.owner}#{set_at}" : "an instance variable of a class or module",
          why: "only the main ractor may set instance variables of classes and modules",
          fix: "keep the value in a local variable or return it in the result; per-worker state: `Ractor.current[:name]`")
      end

      def library_state(what)
        build(what: "the #{library} library #{what} (#{in_library}#{gem_named(@facts.gem)})",
          why: "a ractor other than the main one may not share that state",
          fix: "the #{library} library is not Ractor-safe on this Ruby: use processes (or call it in a way " \
               "that avoids that code)")
      end

      def class_variable
        name = @facts.source.to_s[/@@\w+/]
        name = @facts.candidate&.name || name
        build(what: name ? "class variable #{name}#{set_at}" : "a class variable (@@name)",
          why: "class variables cannot be used from any ractor but the main one",
          fix: changes?(name) ? "state work changes: keep it per ractor (`Ractor.current[:#{name.to_s.delete("@")}] ||= ...`) or pass it in the item" :
            "use a constant holding a shareable value (`Ractor.make_shareable(...)`) instead")
      end

      def proc_method
        named = @facts.candidate&.name
        at = @facts.candidate&.defined_at
        build(what: "a method defined with define_method or define_singleton_method and a block" \
                    "#{" (#{named}#{", at #{Paths.short(at)}" if at})" if named}",
          why: "such a method's body is a block that captured the scope it was defined in, and only the ractor " \
               "that defined it may call it",
          fix: "define it with `def` instead#{shareable_proc_hint}")
      end

      def captured(names)
        noun = names.include?(",") ? "variables" : "variable"
        build(what: "a block that uses the outer #{noun} #{names}",
          why: "a block sent to another ractor may not use variables from the scope around it",
          fix: "pass #{names} to the block as arguments (or as part of the item) instead")
      end

      def other
        if @error.class_name == "Ractor::UnsafeError" || @message.match?(/ractor unsafe/i)
          method = @facts.unsafe_method
          return build(what: "#{method ? "the C method #{method}," : "a method of a C extension"} not marked " \
                             "Ractor-safe#{" (#{in_library}#{gem_named(@facts.gem)})" if library}",
            why: "C methods that are not declared Ractor-safe may only run on the main ractor",
            fix: "#{method ? "#{method} cannot run inside a ractor on this Ruby" : "this library cannot run inside a ractor"}: " \
                 "use processes, or a Ractor-safe alternative")
        end

        @headline = "it raises only inside a ractor"
        build(what: "#{@error.class_name}: #{@message}",
          why: "work(item) succeeds on the main ractor but raises #{@error.class_name} inside another one",
          fix: (@error.class_name.to_s.start_with?("Ractor::") ? "" : "look for shared state at that line; ") +
            "data work needs can be passed in the item or frozen with Ractor.make_shareable")
      end

      def copy(what)
        klass = @facts.class_name || @message[/([A-Z][\w:]*)\z/, 1] || "object"
        path = @facts.path || what
        direction = (what == "item") ? "into the worker ractor" : "back out of the worker ractor"
        where = (what == "item") ? (@preflight.items_location || @preflight.work_location) : @preflight.work_location
        @headline = "its #{what}s cannot be copied between ractors"
        build(what: "#{path} (of item #{@facts.index}) is #{Finding.a(klass)}", where: where, source: nil,
          why: "each #{what} is deep-copied #{direction}, and #{Finding.a(klass)} cannot be copied (#{@error.class_name}: #{@message})",
          fix: "make #{what}s plain data (numbers, strings, arrays, hashes, Structs)")
      end

      def differs
        @headline = "it returns different results inside a ractor"
        build(what: "item #{@facts.index}: the main ractor got #{@facts.serial}, a worker ractor #{@facts.ractor}",
          where: @preflight.work_location, source: nil,
          why: "the result depends on which ractor computes it (Ractor.current, object ids, per-ractor state)",
          fix: "return only what follows from the item")
      end

      # The instance variables the failing line names; the one the static
      # pass matched to this problem first, with its real owner (a helper's
      # module, not work's).
      def ivars
        list = Array(@facts.ivars)
        known = @facts.candidate
        return list unless known && known.kind == "ivar"

        mine = list.find { |i| i.name == known.name } || IvarFacts.new(name: known.name)
        [mine.with(owner: known.owner || mine.owner)] + (list - [mine])
      end

      # Where the static pass saw it first set, outside any method.
      def set_at
        at = @facts.candidate&.defined_at
        at ? ", set at #{Paths.short(at)}" : ""
      end

      def local(name) = name.gsub(/([a-z\d])([A-Z])/, '\1_\2').downcase

      def shareable_proc_hint
        if @preflight.shareable_proc
          ", or build the block with `Ractor.shareable_proc { ... }`"
        else
          ", or make a block that uses no outer variables shareable: `Ractor.make_shareable(proc)` " \
            "(Ruby 4 adds `Ractor.shareable_proc { ... }`)"
        end
      end
    end
  end
end
