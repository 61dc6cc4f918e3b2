# frozen_string_literal: true

require "time"
require_relative "../base/version"
require_relative "../store"
require_relative "../measure/machine"
require_relative "../plan/catalog"
require_relative "../../../harness/ractorbench/harness/fields"

module Ractorbench
  class Collection
    # The first line of every results file a collection writes (run, the
    # tour, try, Ractorbench.run and .try): what was asked (the command line
    # or the Ruby call), the seed, the machine, the Rubies as probed, the
    # catalog's extra files, the models' traits, and the plan by its recipe
    # and digest (Plan::Matrix#to_h), which `--resume` builds again and
    # `merge` matches.
    module Header
      # reps: what run and the tour record of their repetitions; try's header
      # has never had the field, so without reps it is left out.
      UNRECORDED = Object.new.freeze

      module_function

      # extra: the caller's own fields after the plan (ruby_bench, shard,
      # try's findings, profile), in the order given; then the fields a
      # --load file declared (Harness::Fields), which reports read back.
      def build(command:, plan:, targets:, catalog:, timeout:, scale: 1.0, suite: nil, reps: UNRECORDED, extra: {})
        {
          "type" => "header", "tool" => Store::TOOL, "version" => VERSION,
          "command" => command, "created_at" => Time.now.utc.iso8601,
          "seed" => plan.seed, "timeout" => timeout, "scale" => scale, "suite" => suite
        }.merge(recorded_reps(reps)).merge(
          "machine" => Measure::Machine.describe, "rubies" => targets.map(&:to_h),
          "load" => catalog.files - Plan::Catalog.default.files, **catalog.traits,
          "plan" => plan.to_h
        ).merge(extra, Harness::Fields.header(catalog.files))
      end

      def recorded_reps(reps) = reps.equal?(UNRECORDED) ? {} : {"reps" => reps}
    end
  end
end
