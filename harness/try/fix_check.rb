# frozen_string_literal: true

module Ractorbench
  module Harness
    module Try
      # The fix the check's remedies add up to, as lines to put at the end of
      # the user's file (where every constant is complete: freezing a
      # constant where it is defined breaks a file that fills it afterwards),
      # and the scratch copy of the file with them, which the check loads in
      # a fresh process and checks again before the fix is shown.
      module FixCheck
        MARK = "# added by `ractorbench try --check` to check its suggested fix"

        module_function

        def lines(remedies)
          remedies.flat_map do |remedy|
            case remedy["kind"]
            when "freeze" then ["Ractor.make_shareable(#{remedy["expression"]})#{library_note(remedy["library"])}"]
            when "load" then remedy["constants"].map { |c| "#{c} # loads it now, in the main ractor" }
            when "require" then ["#{remedy["relative"] ? "require_relative" : "require"} #{remedy["feature"].inspect}"]
            else []
            end
          end.uniq
        end

        def library_note(library)
          return "" unless library

          " # #{(library == "ruby") ? "Ruby's" : "#{library}'s"} own, frozen from here: #{library} itself unedited"
        end

        # The file's text with the lines at its end (before __END__, after
        # which Ruby reads no code).
        def scratch(text, lines)
          code, marker, data = text.partition(/^__END__\r?$/)
          code += "\n" unless code.empty? || code.end_with?("\n")
          "#{code}#{MARK}\n#{lines.join("\n")}\n#{marker}#{data}"
        end

        # What the check of the scratch copy says about the fix: it holds when
        # the copy loads, no remedy was needed any more, none of the problems
        # the fix addresses came back, some item ran all the way through, and
        # the work still runs serially.
        def verdict(lines, remedies, result)
          fix = {"lines" => lines, "where" => "end"}
          if result["status"] == "bad_input"
            return fix.merge("verified" => false, "loads" => false, "why" => "#{result["location"]}: #{result["problem"]}")
          end
          return fix.merge("verified" => false, "why" => result["problem"] || result["how"]) unless result["problems"]

          fixed = remedies.map { |r| r["problem"] }
          still = result["problems"].map { |p| p["key"] }.select { |k| fixed.include?(k) }
          still |= result["remedies"].map { |r| r["problem"] }
          fix["loads"] = true
          if !still.empty?
            fix.merge("verified" => false, "still" => still)
          elsif result["checked"].to_i.zero?
            fix.merge("verified" => false, "blocked_by" => result["stopped_at"] || result["problems"].first&.dig("key"))
          elsif result["serial_failures"].to_i.positive?
            fix.merge("verified" => false, "why" => "with it, work(item) fails when run serially")
          else
            fix.merge("verified" => true)
          end
        end
      end
    end
  end
end
