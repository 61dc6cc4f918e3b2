# frozen_string_literal: true

module Ractorbench
  module Harness
    # The contract a workload module fulfils (extend it, then define `work`):
    #
    #   name, description           what `ractorbench list` shows
    #   jobs(count, params)         the inputs; shareable, since ractors receive them
    #   work(job)                   one job's result; must not touch shared mutable state
    #   digest(results)             what every model must agree on (order-independent)
    #   check(results, count, params) nil, or why the results are wrong
    #   default_params              workload-specific knobs (`--param key=value`)
    #   validate(params, count)     nil, or why the parameters make no sense
    #   estimate(count, params, per_call)  about how many seconds count jobs take
    #                               serially, per_call being one plain Ruby method
    #                               call's time here; nil if unknown (driver only:
    #                               `run` refuses sizes far beyond the timeout)
    #   concurrency(workers, params) how many threads, ractors or processes a run
    #                               starts at once (driver only: Plan::Capacity
    #                               refuses more than the machine can spare);
    #                               the model's W workers unless the workload
    #                               starts its own
    #   prepare(model, jobs, workers, params)  the run to time (see PreparedRun);
    #                               a job workload leaves it to the model
    #   job_seconds                 nil, or how long one job takes (known after
    #                               `jobs`): a model may hand long jobs out one at a time
    #   stale(params)               nil, or why a run of these parameters would no
    #                               longer measure what was planned (driver only:
    #                               asked before each run and by --resume)
    module Workload
      attr_reader :name, :description, :file

      def workload(name, description)
        @name = name
        @description = description
        @file = caller_locations(1, 1).first.absolute_path
        Harness.register_workload(self)
      end

      def default_params
        {}
      end

      def validate(_params, _count)
        nil
      end

      def estimate(_count, _params, _per_call)
        nil
      end

      def stale(_params)
        nil
      end

      def concurrency(workers, _params)
        workers
      end

      def jobs(count, _params)
        Ractor.make_shareable((1..count).to_a)
      end

      def digest(results)
        require "digest/sha1"
        Digest::SHA1.base64digest(results.sort.inspect)
      end

      def check(_results, _count, _params)
        nil
      end

      def job_seconds
        nil
      end

      def prepare(model, jobs, workers, _params)
        PreparedRun.new(model.extra_metrics) { model.run(self, jobs, workers) }
      end
    end
  end
end
