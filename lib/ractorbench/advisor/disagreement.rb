# frozen_string_literal: true

require_relative "paths"
require_relative "../base/errors"

module Ractorbench
  module Advisor
    # Timings of different computations compare nothing: a sweep whose
    # models' results differ from serial's gets no report.
    module Disagreement
      module_function

      # Raises UsageError naming the models and worker counts that differed.
      def refuse!(analysis, work_location:, path:)
        check = analysis.digest_check
        return if check.agree?

        wrong = check.disagreements.flat_map(&:runs).group_by(&:model).sort_by(&:first)
          .map { |model, runs| "#{model} (W=#{runs.map(&:workers).uniq.sort.join(",")})" }
        raise UsageError, "#{Paths.short(work_location)}: work returned different results under " \
          "#{wrong.join(", ")} than serially (compared item by item); it must return the same result for an item whichever " \
          "thread, process or ractor runs it: leave thread, process and ractor identities, object ids, times and random " \
          "numbers out of the result (runs kept in #{path})"
      end
    end
  end
end
