# frozen_string_literal: true

require_relative "../prepared_run"
require_relative "../run_cost"
require_relative "worker"
require_relative "worker_gc"
require_relative "values"
require_relative "refusal"

module Ractorbench
  module Harness
    module RubyBench
      # A measured run of one crew (Crews::*): its workers created and warmed
      # up before the clock, the clock from their start to the last answer;
      # or, creation timed (as ruby-bench times it), `warmup` whole rounds of
      # fresh workers first, then a fresh crew created inside the clock.
      module Round
        CREATIONS = %w[untimed timed].freeze

        module_function

        def prepared(crew_class, captured, workers, blocks, params)
          plan = Plan.new(workers, blocks, params.fetch(:warmup), WorkerGC.scope(crew_class::KIND))
          metrics = {"creation" => params.fetch(:creation).to_s, "warmup" => plan.warmup, "gc_scope" => plan.gc_scope}.compact
          if params[:creation].to_s == "timed"
            earlier = warm_up(crew_class, captured, plan)
            crew = crew_class.new(captured, plan.without_warmup)
            PreparedRun.new(metrics) do
              clock = now
              results(crew, ready!(crew) - clock, metrics, earlier)
            end
          else
            crew = crew_class.new(captured, plan)
            created = ready!(crew)
            PreparedRun.new(metrics) { results(crew, created - now, metrics, {}) }
          end
        end

        def now = Process.clock_gettime(Process::CLOCK_MONOTONIC)

        # Untimed whole rounds; {worker index => the digests its blocks gave}.
        def warm_up(crew_class, captured, plan)
          earlier = Hash.new { |h, k| h[k] = [] }
          plan.warmup.times do
            crew = crew_class.new(captured, plan.without_warmup)
            ready!(crew)
            reports = crew.finish
            raise_failure(reports.map { |r| r[:error] })
            reports.each { |r| earlier[r[:index]].concat(r[:digests].map(&:first)) }
          end
          earlier
        end

        # Starts the crew; a worker that could not prepare ends the run
        # before the clock, the others told to stop. Returns when creating
        # the crew began.
        def ready!(crew)
          began = now
          errors = crew.start
          return began if errors.compact.empty?

          crew.abort
          raise_failure(errors)
        end

        # The crew's answers as the run's results. created: when its creation
        # began, against the start of the clock (the child starts it as it
        # calls the run): negative, before it; recorded, so every run shows
        # which side of the clock its workers were made on.
        def results(crew, created, metrics, earlier)
          reports = crew.finish
          metrics["workers_created_at_s"] = created.round(6)
          raise_failure(reports.map { |r| r[:error] })
          RunCost.report_workers(reports.map { |r| r[:cost] })
          metrics["variant"] = crew.variant
          metrics["worker_jobs"] = reports.map { |r| r[:digests].size }
          record_gc(reports, metrics)
          metrics.merge!(crew.metrics)
          Values.results(reports, earlier).tap { |list| metrics["values"] = Values.judge(list).text }
        end

        # Each worker's own collections, where it has its own (WorkerGC).
        def record_gc(reports, metrics)
          gcs = reports.map { |r| r[:gc] }
          return if gcs.empty? || gcs.any?(&:nil?)

          metrics["worker_gc_count"] = gcs.map(&:first)
          metrics["worker_gc_time_ms"] = gcs.map(&:last)
        end

        # The first failure among workers' errors ([kind, text] or nil):
        # "not supported" for a reason Refusal knows, else a failed run.
        def raise_failure(errors)
          kind, text, scope = errors.compact.first
          return unless kind

          worker = errors.index { |e| e }
          Refusal.raise!(text, scope) if kind == :unsupported

          raise "worker #{worker + 1} of #{errors.size}: #{text}"
        end
      end
    end
  end
end
