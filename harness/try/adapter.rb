# frozen_string_literal: true

require_relative "../ractorbench/harness"
require_relative "target"
require_relative "own_code"
require_relative "result_digest"
require_relative "user_code"

module Ractorbench
  module Harness
    module Try
      # The "try" workload: the work a user's file defines, run by every
      # model like any other workload. Its parameters name the file (and,
      # optionally, the module); each job is [index, item] so that results
      # can be compared item by item whatever order a model returns them in.
      module Adapter
        extend Harness::Workload
        workload "try", "the work a user's file defines (`ractorbench try FILE`)"

        # A failure in the user's work, with where in their code it happened.
        class WorkError < StandardError; end

        # Runs in the child's main ractor before any model starts, so the
        # user's module is loaded before workers fork or ractors start.
        def self.jobs(count, params)
          target = Target.load(params.fetch(:file), params[:module], digest: params[:file_digest])
          # A module and a frozen string are shareable, so workers in other
          # ractors may read these.
          @target = target
          @file = File.expand_path(params.fetch(:file)).freeze
          @job_seconds = params[:seconds_per_item]&.to_f
          Target.items(target, count).each_with_index.map { |item, index| [index, item] }
        end

        def self.work(job)
          index, item = job
          [index, @target.work(item)]
        rescue => e
          frame = UserCode.frame(e.backtrace, @file)
          # A C method not marked Ractor-safe: Ruby's message does not name it, its first frame does.
          unsafe = UserCode.method_name(UserCode.frames(e.backtrace).first) if e.is_a?(Ractor::UnsafeError)
          raise WorkError, "#{ErrorText.line(e)}#{" (the C method #{unsafe})" if unsafe} " \
            "(#{frame || "in #{OwnCode.name_of(@target)}.work"}, item #{index})"
        end

        # What the check measured per item (`try` passes it), so that a model
        # hands coarse items out one at a time.
        def self.job_seconds = @job_seconds

        def self.digest(results)
          ResultDigest.call(results)
        end

        # What `try` passes (the file, the module it chose, the check's time
        # per item, the file's digest as checked), declared so that `run
        # --resume` takes a try's plan.
        def self.default_params = {file: nil, module: nil, seconds_per_item: nil, file_digest: nil}

        # The code measured is the code checked: the driver asks before each
        # run (and --resume before any), the run itself as it loads the file.
        def self.stale(params)
          digest, file = params.values_at(:file_digest, :file)
          return unless digest && file

          Target.changed(File.expand_path(file), digest)
        end

        def self.validate(params, _count)
          "needs the parameter file=PATH" unless params[:file]
        end
      end
    end
  end
end
