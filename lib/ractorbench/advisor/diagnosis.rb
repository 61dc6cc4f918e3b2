# frozen_string_literal: true

require_relative "paths"

module Ractorbench
  module Advisor
    # Why a model cannot run the user's work, in the user's terms: which
    # object, where in their code, why the model refuses it, and the fix to
    # try. Built from the facts harness/try/preflight.rb brought back.
    class Diagnosis
      attr_reader :model, :headline, :what, :where, :source, :why, :fix

      def initialize(model:, headline:, what:, where:, why:, fix:, source: nil)
        @model = model
        @headline = headline
        @what = what
        @where = where
        @source = source
        @why = why
        @fix = fix
      end

      def lines
        at = if where
          Paths.short(where) + (source ? "   #{source}" : "")
        else
          "(no line of your code in the backtrace)"
        end
        ["#{model}: #{headline}", "  what:  #{what}", "  where: #{at}", "  why:   #{why}", "  fix:   #{fix}"]
      end

      # "a Hash", "an Array".
      def self.a(name) = "#{/\A[AEIOU]/i.match?(name.to_s) ? "an" : "a"} #{name}"

      # The one line a failed-runs summary can show.
      def summary = "#{model}: #{headline} (#{what}, at #{where ? Paths.short(where) : "unknown"})"

      # nil when a ractor ran the sample as the main ractor did.
      def self.ractor(preflight)
        facts = preflight["ractor"]
        facts && RactorFacts.new(facts, preflight).diagnosis
      end

      # nil when every sampled item and result survives Marshal.
      def self.marshal(preflight)
        facts = preflight["marshal"]
        return nil unless facts

        what = "#{facts["path"] || facts["what"]} (of item #{facts["index"]}) is #{a(facts["class"])}"
        where = (facts["what"] == "result") ? preflight["work_location"] : (preflight["items_location"] || preflight["work_location"])
        new(model: "processes", headline: "cannot run this work: its #{facts["what"]}s cannot be sent between processes",
          what: "#{what} (Marshal: #{facts["message"]})", where: where,
          why: "forked workers receive items and send results back with Marshal, which cannot write #{a(facts["class"])}",
          fix: "make #{facts["what"]}s plain data (numbers, strings, arrays, hashes, Structs); for a class of yours, " \
               "define marshal_dump and marshal_load")
      end

      FAILURE = /(?<class>Ractor::\w+): (?<message>.*) \((?<path>[^()\s]+):(?<line>\d+), item (?<index>\d+)\)\z/

      # From a ractors run that failed in the sweep (on an item the check
      # did not try): the adapter put the error and the user's line in it.
      def self.from_failure(reason, preflight)
        m = FAILURE.match(reason.to_s.strip)
        return nil unless m

        source = begin
          File.foreach(m[:path]).with_index(1).find { |_, i| i == m[:line].to_i }&.first&.strip
        rescue SystemCallError, IOError
          nil
        end
        facts = {"stage" => "work", "index" => m[:index].to_i, "error" => {"class" => m[:class], "message" => m[:message]},
                 "where" => "#{m[:path]}:#{m[:line]}", "source" => source}
        RactorFacts.new(facts, preflight).diagnosis
      end

      # Reads the ractor facts: the error raised inside the ractor, its
      # message, and what the main ractor found about the object it names.
      class RactorFacts
        MUTATES = '\s*(?:\[[^\]]*\]\s*(?:\|\||&&|[-+*\/])?=(?!=)|<<|\.(?:push|store|merge!|delete|clear|concat|update|add|insert|unshift|replace|\w+!))'

        def initialize(facts, preflight)
          @facts = facts
          @preflight = preflight
          @error = facts["error"] || {}
          @message = @error["message"].to_s
        end

        def diagnosis
          case @facts["stage"]
          when "item" then copy("item")
          when "result" then copy("result")
          when "differs" then differs
          else raised
          end
        end

        private

        def build(what:, why:, fix:, where: @facts["where"], source: @facts["source"], headline: "not Ractor-safe")
          Diagnosis.new(model: "ractors", headline: "cannot run this work: #{headline}", what: what,
            where: where || @facts["work_location"], source: where ? source : @facts["work_source"], why: why, fix: fix)
        end

        def raised
          case @message
          when /constant ([A-Z][\w:]*)/ then constant(Regexp.last_match(1))
          when /global variables? (\$\S+)/ then global(Regexp.last_match(1))
          when /can not get unshareable values from instance variables/ then class_ivar_get
          when /can not set instance variables/ then class_ivar_set
          when /class variables/ then class_variable
          when /un-shareable Proc/ then proc_method
          when /outer variables?\s*\(([^)]*)\)/ then captured(Regexp.last_match(1))
          else other
          end
        end

        def constant(name)
          info = @facts["constant"] || {}
          kind = if info["class"]
            "#{Diagnosis.a(info["class"])}, #{info["frozen"] ? "frozen, but what it holds is not" : "not frozen"}"
          else
            "not shareable"
          end
          short = name.split("::").last
          fix = if @facts["source"].to_s.match?(/\b#{Regexp.escape(short)}#{MUTATES}/)
            "#{Diagnosis.a(info["class"] || "value")} that work changes cannot be shared by ractors: keep one per ractor " \
              "(`#{local(short)} = (Ractor.current[:#{local(short)}] ||= {})`), or pass what work needs in the item"
          elsif info["class"] == "Proc"
            "turn the proc into a method (`def self.#{local(short)}(...)`)#{shareable_proc_hint}"
          else
            "freeze it deeply where it is defined: `#{short} = Ractor.make_shareable(...)` " \
              "(or put `# shareable_constant_value: literal` at the top of the file)"
          end
          build(what: "constant #{name} (#{kind})", fix: fix,
            why: "a ractor other than the main one may only read constants whose values are shareable (deeply frozen)")
        end

        def global(name)
          build(what: "global variable #{name}", why: "only the main ractor may read or write global variables",
            fix: "pass the value in the item, or copy it once into a constant made shareable " \
                 "(`LIMIT = Ractor.make_shareable(#{name})`); for per-worker state use `Ractor.current[:name]`")
        end

        def class_ivar_get
          ivar = ivars.first
          what = ivar ? "#{ivar["name"]} of #{ivar["owner"]} (#{Diagnosis.a(ivar["class"])})" : "an instance variable of a class or module"
          mutated = ivar && @facts["source"].to_s.match?(/#{Regexp.escape(ivar["name"])}#{MUTATES}/)
          fix = if mutated
            "state that work changes cannot live on a module: keep it per ractor " \
              "(`Ractor.current[:#{ivar["name"].delete("@")}] ||= {}`) or pass it in the item"
          else
            "make the value shareable where it is set: `#{ivar ? ivar["name"] : "@value"} = Ractor.make_shareable(...)`"
          end
          build(what: what, fix: fix,
            why: "other ractors may read a module's instance variables only when they hold shareable (deeply frozen) values")
        end

        def class_ivar_set
          ivar = ivars.first
          build(what: ivar ? "#{ivar["name"]} of #{ivar["owner"]}" : "an instance variable of a class or module",
            why: "only the main ractor may set instance variables of classes and modules",
            fix: "keep the value in a local variable or return it in the result; per-worker state: `Ractor.current[:name]`")
        end

        def class_variable
          name = @facts["source"].to_s[/@@\w+/]
          build(what: name ? "class variable #{name}" : "a class variable (@@name)",
            why: "class variables cannot be used from any ractor but the main one",
            fix: "use a constant holding a shareable value (`Ractor.make_shareable(...)`) instead")
        end

        def proc_method
          build(what: "a method defined with define_method or define_singleton_method and a block",
            why: "such a method's body is a block that captured the scope it was defined in, and only the ractor " \
                 "that defined it may call it",
            fix: "define it with `def` instead#{shareable_proc_hint}")
        end

        def captured(names)
          build(what: "a block that uses the outer variable(s) #{names}",
            why: "a block sent to another ractor may not use variables from the scope around it",
            fix: "pass #{names} to the block as arguments (or as part of the item) instead")
        end

        def other
          if @error["class"] == "Ractor::UnsafeError" || @message.match?(/ractor unsafe/i)
            return build(what: "a method of a C extension not marked Ractor-safe",
              why: "C methods that are not declared Ractor-safe may only run on the main ractor",
              fix: "this library cannot run inside a ractor: use processes, or a Ractor-safe alternative")
          end

          build(what: "#{@error["class"]}: #{@message}", headline: "it raises only inside a ractor",
            why: "work(item) succeeds on the main ractor but raises #{@error["class"]} inside another one",
            fix: (@error["class"].to_s.start_with?("Ractor::") ? "" : "look for shared state at that line; ") +
              "data work needs can be passed in the item or frozen with Ractor.make_shareable")
        end

        def copy(what)
          klass = @facts["class"] || @message[/([A-Z][\w:]*)\z/, 1] || "object"
          path = @facts["path"] || what
          direction = (what == "item") ? "into the worker ractor" : "back out of the worker ractor"
          where = (what == "item") ? (@preflight["items_location"] || @preflight["work_location"]) : @preflight["work_location"]
          build(what: "#{path} (of item #{@facts["index"]}) is #{Diagnosis.a(klass)}", where: where, source: nil,
            headline: "its #{what}s cannot be copied between ractors",
            why: "each #{what} is deep-copied #{direction}, and #{Diagnosis.a(klass)} cannot be copied (#{@error["class"]}: #{@message})",
            fix: "make #{what}s plain data (numbers, strings, arrays, hashes, Structs)")
        end

        def differs
          build(what: "item #{@facts["index"]}: the main ractor got #{@facts["serial"]}, a worker ractor #{@facts["ractor"]}",
            where: @preflight["work_location"], source: nil, headline: "it returns different results inside a ractor",
            why: "the result depends on which ractor computes it (Ractor.current, object ids, per-ractor state)",
            fix: "return only what follows from the item")
        end

        def ivars = Array(@facts["ivars"])

        def local(name) = name.gsub(/([a-z\d])([A-Z])/, '\1_\2').downcase

        def shareable_proc_hint
          if @preflight["shareable_proc"]
            ", or build the block with `Ractor.shareable_proc { ... }`"
          else
            ", or make a block that uses no outer variables shareable: `Ractor.make_shareable(proc)` " \
              "(Ruby 4 adds `Ractor.shareable_proc { ... }`)"
          end
        end
      end
    end
  end
end
