# frozen_string_literal: true

require_relative "../ractorbench/harness"
require_relative "../ractorbench/harness/subject"
require_relative "../ractorbench/harness/ops_meter"
require_relative "../ractorbench/harness/async_support"
require_relative "../ractorbench/harness/param_check"

module Ractorbench
  module Workloads
    # The cost of concurrency itself (seed 001, "Performance of
    # Concurrently"): executions per second of one subject's operation, not
    # the time of a set of jobs. It measures itself (`measure_run`), so the
    # record carries counts and times of samples instead of a messages-only
    # time and a digest; its check is that the subject ran exactly as many
    # times as the harness timed. Batch size = workers x messages.
    module OpsPerSecond
      extend Harness::Workload
      workload "ops-per-second",
        "executions per second of one subject in batches of W x M (Performance of Concurrently); --param subject=NAME time=S gc=on|off"

      # table: which of the seed's tables a subject's row goes in (the
      # concurrently suites set it; reports group by it).
      def self.default_params = {subject: nil, time: 1.0, samples: 5, warmup: nil, gc: "on", table: nil}

      def self.validate(params, _count)
        subjects = Harness::Subject.load_all
        name = params[:subject]
        return "needs --param subject=NAME, one of: #{subjects.keys.sort.join(", ")}" if name.nil?
        return "unknown subject #{name.inspect}; known: #{subjects.keys.sort.join(", ")}" unless subjects.key?(name.to_s)

        positive(params, :time, "0.2") || (positive(params, :warmup, "0.5") unless params[:warmup].nil?) ||
          Harness::ParamCheck.integer(params, :samples, 5, min: 1) || Harness::ParamCheck.one_of(params, :gc, %w[on off])
      end

      def self.positive(params, key, example)
        value = params[key]
        "#{key} must be a positive number of seconds, got #{value.inspect}; e.g. --param #{key}=#{example}" unless value.is_a?(Numeric) && value.positive?
      end

      # Time-boxed: the samples and the warm-up, then as long again for
      # calibration and the empty loop.
      def self.estimate(_count, params, _per_call)
        time, samples, warmup = params.values_at(:time, :samples, :warmup)
        return nil unless time.is_a?(Numeric) && samples.is_a?(Integer)

        2 * (time * samples + (warmup.is_a?(Numeric) ? warmup : time / 2.0))
      end

      def self.work(_job)
        raise NotImplementedError, "ops-per-second measures a subject (measure_run), it has no jobs"
      end

      # The whole run record for the child to report.
      def self.measure_run(model, spec)
        params = default_params.merge(spec.fetch("params", {}).transform_keys(&:to_sym))
        subject = Harness::Subject.find(params[:subject].to_s) or raise ArgumentError, "unknown subject #{params[:subject].inspect}"
        unsupported = unsupported_reason(subject, model)
        return {"status" => "unsupported", "reason" => unsupported} if unsupported

        gc_count = GC.count
        ops = Harness::OpsMeter.measure(subject, settings(params, spec))
        {
          "status" => (ops["counted"] == ops["executions"]) ? "ok" : "wrong_result",
          "reason" => miscount(ops),
          "ops" => ops.merge("subject" => subject.name, "seed" => subject.seed, "ran" => subject.ran,
            "async" => Harness::AsyncSupport.version),
          "gc_count" => GC.count - gc_count,
          "peak_rss_kb" => Harness::Memory.peak_rss_kb
        }.compact
      end

      # A subject measures one model; under any other it has nothing to say.
      def self.unsupported_reason(subject, model)
        return "subject #{subject.name} measures the #{subject.model} model, not #{model.name}" unless subject.model == model.name

        subject.unsupported_reason
      end

      def self.settings(params, spec)
        time = params[:time].to_f
        Harness::OpsMeter::Settings.new(time: time, samples: Integer(params[:samples]),
          warmup: params[:warmup].nil? ? time / 2 : params[:warmup].to_f, gc_off: params[:gc].to_s == "off",
          batch_size: Integer(spec.fetch("workers")) * Integer(spec.fetch("messages")))
      end

      def self.miscount(ops)
        return nil if ops["counted"] == ops["executions"]

        "the subject ran #{ops["counted"]} times, the harness timed #{ops["executions"]}"
      end
    end
  end
end
