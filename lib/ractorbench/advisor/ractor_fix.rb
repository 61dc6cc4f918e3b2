# frozen_string_literal: true

require_relative "paths"

module Ractorbench
  module Advisor
    # The fix the check's remedies add up to (constants made shareable,
    # code loaded at load time): lines for the end of the user's file, and
    # what the check made sure of by loading a copy of the file with them
    # (harness/try/fix_check.rb). Only a fix that passed is called checked;
    # otherwise the words say what is known.
    class RactorFix
      # blocker: what the problem the check could not get past is.
      def initialize(fix, file, blocker: nil)
        @fix = fix
        @file = Paths.short(file)
        @blocker = blocker
      end

      # Text after "fix:", then the code lines, indented.
      def text
        return verified if @fix.verified
        return blocked if @fix.blocked_by

        "make each constant shareable once it is complete and load at load time what work loads on first use; " \
          "the check tried these lines at the end of #{@file} and they did not pass (#{failure}):"
      end

      def code = @fix.lines

      private

      def verified
        "add these lines at the end of #{@file}, where everything they name is complete (checked: a copy of " \
          "#{@file} with them loads, and work then runs in a ractor and returns serial's results):"
      end

      def blocked
        "add these lines at the end of #{@file}, where everything they name is complete (checked only that the " \
          "file loads with them: the check could not get past #{@blocker || "another problem"}):"
      end

      def failure
        return "the file no longer loads: #{Paths.short(@fix.why)}" if @fix.loads == false
        return "the same problems came back" if @fix.still

        Paths.short(@fix.why.to_s)
      end
    end
  end
end
