# frozen_string_literal: true

require "fileutils"
require "time"
require_relative "perf"
require_relative "vernier"
require_relative "records"
require_relative "record"
require_relative "../measure/launcher"
require_relative "../measure/outcome"
require_relative "../rubies/child_programs"
require_relative "../collector"
require_relative "../measure/machine"
require_relative "../plan/configuration"
require_relative "../base/printable"

module Ractorbench
  module Profile
    # The profiled runs of a collection: for each configuration, one more
    # run with the profiler attached, after the timed runs and never one of
    # them (they keep their n and their figures). Each is a "profile" line
    # of the results file, which every reader of runs skips; its summary
    # (categories, top functions) is in the line, the profile itself in a
    # folder beside the results file, named in the line.
    class ProfiledRuns
      # tools: {ruby name => "perf" | "vernier" | nil} (Request#tools).
      def initialize(catalog:, targets:, timeout:, writer:, tools:, progress:)
        @catalog = catalog
        @targets = targets.to_h { |t| [t.name, t] }
        @timeout = timeout
        @writer = writer
        @tools = tools
        @progress = progress
      end

      # One spec of each configuration of runs that a profile can cover (a
      # Ruby with a profiler, a workload that is a run of jobs: one that
      # measures operations a second times itself), but not those that done
      # already has (--resume). Profiles are CRuby's harness's (ProfileHook).
      def self.pending(runs, catalog, tools, done: {})
        runs.uniq { |spec| spec.configuration.label }.select do |spec|
          tools[spec.ruby] && !done.key?(Records.id(spec.configuration)) &&
            !catalog.workload(spec.workload).implementation.respond_to?(:measure_run)
        end
      end

      # recorded: the timed runs the collection recorded, for what a Ctrl-C
      # says (Collector::Stopped): the profiles left run on --resume.
      def collect(specs, recorded:)
        specs.each do |spec|
          @progress.started("profile #{spec.configuration.label}")
          record = profile(spec)
          Thread.handle_interrupt(SignalException => :never) { @writer.append(record.to_h) }
          @progress.say("PROFILE FAILED #{record.id}: #{Printable.name(record.reason)}") if record.failed?
          @progress.finished
        end
      rescue SignalException => e
        # The Launcher has killed the profiled run and its tree.
        signo = e.signo || Signal.list.fetch("INT")
        raise Collector::Stopped.new(Signal.signame(signo), signo, recorded, nil)
      ensure
        @progress.finish
      end

      private

      def profile(spec)
        target = @targets.fetch(spec.ruby)
        tool = @tools.fetch(spec.ruby)
        started_at = Time.now.utc.iso8601(3)
        child_spec = spec.to_h.merge("files" => @catalog.files_for(spec.workload, spec.model))
        launch = lambda do |started, options|
          Measure::Launcher.new(started, Rubies::ChildPrograms::CRUBY.child, timeout: @timeout).call(child_spec.merge("profile" => options))
        end
        launched, (totals, why), kept = if tool == "perf"
          Perf.record(target, timeout: @timeout, capacity: capacity(spec), &launch)
        else
          Vernier.record(target, timeout: @timeout, &launch)
        end
        outcome = Measure::Outcome.new(launched, timeout: @timeout).to_h
        record = Record.from({"type" => Records::TYPE, "id" => Records.id(spec.configuration), "started_at" => started_at}
          .merge(spec.to_h.except("rep")).merge("tool" => tool)
          .merge(outcome.slice("status", "failure", "reason", "messages_time", "whole_time", "stderr_tail")))
        return record unless record.ok?

        if totals
          record.file = keep(spec, tool, totals, kept)
          record.profile = totals.summary
        else
          record.status, record.failure, record.reason = "failed", "profile", why
        end
        record
      end

      # The cores a run could use, as Analysis::Gap counts them: serial's one.
      def capacity(spec)
        return 1 if @catalog.model(spec.model).family == "serial"

        [spec.workers.to_i, Measure::Machine.usable_cores].min.clamp(1, nil)
      end

      # The profile beside the results file: perf's samples folded by
      # category and function (flamegraph.pl, speedscope and inferno read
      # it), vernier's own file (vernier's viewer, the Firefox profiler).
      # Named in the record relative to the results file's folder.
      def keep(spec, tool, totals, kept)
        folder = Records.folder(@writer.path)
        FileUtils.mkdir_p(folder)
        name = spec.configuration.label.gsub(%r{[^A-Za-z0-9_.=,+-]+}, "_")
        path = File.join(folder, (tool == "perf") ? "#{name}.perf.folded" : "#{name}.vernier.json")
        File.binwrite(path, (tool == "perf") ? totals.folded : kept)
        File.join(File.basename(folder), File.basename(path))
      end
    end
  end
end
