# frozen_string_literal: true

module Ractorbench
  class Collection
    # What a collection gives back: its results file and the Analysis of it
    # (read once, after the last run), the runs by outcome, and the exit
    # status `run` ends with: 0 when every run succeeded and every model
    # computed the same results as serial, else 1.
    Finish = Struct.new(:path, :analysis) do
      def ok = analysis.succeeded

      def failed = analysis.failed

      def unsupported = analysis.unsupported

      def exit_status = (failed.zero? && analysis.digest_check.agree?) ? 0 : 1
    end
  end
end
