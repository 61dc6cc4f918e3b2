# frozen_string_literal: true

require_relative "base/errors"
require_relative "base/plural"
require_relative "base/printable"
require_relative "plan/matrix"
require_relative "plan/size"
require_relative "plan/capacity"
require_relative "measure/machine"
require_relative "collector"
require_relative "measure/progress"
require_relative "store"
require_relative "collection/recorded_plan"
require_relative "analysis"
require_relative "profile/stage"
require_relative "collection/header"
require_relative "collection/session"
require_relative "collection/resume"
require_relative "collection/adaptive_rounds"
require_relative "collection/finish"

module Ractorbench
  # One collection, whoever asks for it (`run`, the tour, `try`,
  # Ractorbench.run and .try), from keywords, never a command line, from the
  # plan to the results read back (its collect step is the Collector's):
  # plan (the seeded matrix, a shard's slice, its sizes checked) -> probe
  # (the Rubies, the ractor scaling probe, the profilers) -> header (the
  # results file created) -> collect (every run, --reps auto's rounds, the
  # profiled runs) -> finish (the file read back: a Finish).
  #
  # `open` does the first three and `collect` the rest, so a command can
  # say what is about to run in between; `call` does both.
  class Collection
    DEFAULT_TIMEOUT = 600.0

    # A plan `run --resume` would refuse (a bug: every collection's file
    # must be resumable).
    class NotResumable < StandardError; end

    # The plan, and the Session once open.
    attr_reader :matrix, :session

    # catalog, entries: what to run (Plan::Catalog, Plan::Entry list);
    # rubies: Rubies::Target list (probed here unless they already are);
    # reps: repetitions of each configuration (adaptive's first blocks with
    # adaptive, a Plan::AdaptiveReps); command: what the header records as
    # asked (a command line, or the Ruby call); output: the results file;
    # force: replace a regular file there; shard: a Plan::Shard or nil;
    # profile: a Profile::Request or nil; quiet_wait: a Measure::QuietWait or
    # nil; suite, scale: what the header records of them; header: more
    # header fields after the plan (ruby_bench, try's findings);
    # record_reps: false leaves repetitions out of the header (try's never
    # had them); sizes: a check of the plan (a callable taking the Matrix)
    # instead of run's (Plan::Size, Plan::Capacity); scaling_probe: probe
    # each Ruby's ractor scaling when the plan runs ractors at W >= 2;
    # first_run: the Analysis's first-run policy;
    # progress: where the progress line and failures go; say: a callable
    # for one line on standard error.
    def initialize(catalog:, entries:, rubies:, reps:, command:, output:, seed: nil, timeout: DEFAULT_TIMEOUT,
      force: false, shard: nil, adaptive: nil, profile: nil, quiet_wait: nil, suite: nil, scale: 1.0, header: {},
      record_reps: true, sizes: nil, scaling_probe: true, first_run: "auto", progress: $stderr,
      say: ->(line) { progress.puts(line) })
      @catalog = catalog
      @entries = entries
      @rubies = rubies
      @reps = reps
      @command = command
      @output = output
      @seed = seed || Random.new_seed % 2**32
      @timeout = timeout
      @force = force
      @shard = shard
      @adaptive = adaptive
      @profile = profile
      @recorded = {suite: suite, scale: scale, extra: header, reps: record_reps}
      @sizes = sizes
      @scaling_probe = scaling_probe
      collecting(quiet_wait: quiet_wait, first_run: first_run, progress: progress, say: say)
    end

    # The collection a results file began, to be finished (`run --resume`):
    # its plan, timeout and Rubies from its header (Resume).
    def self.resume(path, quiet_wait: nil, first_run: "auto", progress: $stderr, say: ->(line) { progress.puts(line) })
      Resume.new(path, quiet_wait: quiet_wait, first_run: first_run, progress: progress, say: say)
    end

    # A results file's name in the current folder when none is given: what
    # made it and when (ractorbench-20250101-120000.jsonl).
    def self.default_path(name) = "#{name}-#{Time.now.strftime("%Y%m%d-%H%M%S")}.jsonl"

    def call
      open
      collect
    end

    # plan -> probe -> header: the results file created, nothing run yet.
    def open
      OutputPath.check!(@output, force: @force, exists: Store::Writer.exists_message(@output))
      plan
      targets = probe
      @session = Session.new(catalog: @catalog, targets: targets, runs: @matrix.runs, timeout: @timeout, first_seq: 1,
        profile: @profile && Profile::Stage.new(@profile, targets, say: @say))
      header = header(targets)
      resumable!(header)
      @session.writer = Store::Writer.create(@output, header, force: @force)
      self
    end

    # collect -> finish: every run, then the file read back (a Finish).
    def collect
      collect_runs
      finish
    ensure
      @session&.writer&.close
    end

    def path = @session.writer.path

    # How many runs the whole plan has (more than matrix.runs for a shard).
    def planned_runs = @whole.runs.size

    private

    # How the runs are collected and told, a new collection or a resumed one.
    def collecting(quiet_wait:, first_run:, progress:, say:)
      @quiet_wait = quiet_wait
      @first_run = first_run
      @progress = progress
      @say = say
      @started = Time.now
    end

    def plan
      @entries.then { |e| Plan::Size.count!(e, rubies: @rubies.size, reps: @reps, shards: @shard&.count || 1) } unless @sizes
      @whole = Plan::Matrix.build(entries: @entries, rubies: @rubies.map(&:name), reps: @reps, seed: @seed)
      @matrix = slice(@whole)
      current!
      return @sizes.call(@matrix) if @sizes

      Plan::Size.check!(@matrix.runs, @catalog, timeout: @timeout)
      Plan::Capacity.check!(@matrix.runs, @catalog, @rubies)
    end

    # Each configuration measures what was planned (try: the file checked).
    def current!
      why = @matrix.runs.uniq { |s| [s.workload, s.params] }.lazy.filter_map { |s| @catalog.stale(s) }.first
      raise UsageError, why if why
    end

    # --shard I/N: this job's slice of the plan (the header records the
    # whole plan's fingerprint, for `merge`).
    def slice(plan)
      return plan unless @shard

      slice = plan.slice(@shard)
      # An empty slice is no error: a CI matrix of fixed size may have one.
      @say.call("ractorbench: no run of this plan's #{plan.runs.size} falls in shard #{@shard}") if slice.runs.empty?
      slice
    end

    def probe
      targets = @rubies.map { |t| t.info ? t : t.probe!(timeout: @timeout) }
      probe_scaling(targets) if @scaling_probe
      targets
    end

    # Once per Ruby, when the plan runs a ractor model at W >= 2: do W
    # ractors that share nothing cost more CPU per iteration than one?
    # W is the plan's largest ractor worker count, at most the usable cores.
    def probe_scaling(targets)
      counts = @entries.select { |e| e.models.any? { |m| @catalog.model(m).family == "ractor" } }.flat_map { |e| e.configs.map(&:first) }
      return if counts.empty? || counts.max < 2

      cores = [Measure::Machine.usable_cores, 2].max
      workers = counts.max.clamp(2, cores)
      targets.each { |t| t.scaling_probe!(workers) if t.probe.features.ractor }
    end

    def header(targets)
      shard = @shard ? {"shard" => @shard.to_h(@whole.runs)} : {}
      profile = @session.profile ? {"profile" => @session.profile.to_h} : {}
      reps = @recorded[:reps] ? @adaptive&.to_s || @matrix.runs.map(&:rep).max : Header::UNRECORDED
      Header.build(command: @command, plan: @matrix, targets: targets, catalog: @catalog, timeout: @timeout,
        scale: @recorded[:scale], suite: @recorded[:suite], reps: reps, extra: @recorded[:extra].merge(shard).merge(profile))
    end

    # Every results file is finished by `run --resume`, whichever command
    # began it: its header, as a reader will parse it, passes the checks
    # --resume makes before a line is written. One that does not is
    # ractorbench's own fault, said before anything runs. (An empty shard
    # has nothing to finish.)
    def resumable!(header)
      return if @matrix.runs.empty?

      RecordedPlan.new(@output, Store::Header.new(JSON.parse(JSON.generate(header))), [], default_timeout: DEFAULT_TIMEOUT)
    rescue UsageError => e
      raise NotResumable, "ractorbench could not finish this collection after a stop, so it does not start it (a bug " \
        "in ractorbench; please report it): #{e.message}"
    end

    def collector(count, progress: Measure::Progress.for(count, io: @progress))
      Collector.new(catalog: @session.catalog, targets: @session.targets, timeout: @session.timeout,
        writer: @session.writer, progress: progress, quiet_wait: @quiet_wait, suspects: @session.suspects || [])
    end

    def collect_runs
      collector(@session.runs.size).collect(@session.runs, first_seq: @session.first_seq)
      AdaptiveRounds.new(@adaptive, deadline: deadline, io: @progress).run(@session, method(:collector)) if @adaptive
      profile_runs
      @session.writer.finish
    rescue Collector::Stopped => e
      raise Exit.new(stopped(e), 128 + e.signo)
    rescue Store::Writer::Failed => e
      raise Exit.new(failed(e), 1)
    rescue Collector::Stale => e
      raise Exit.new("#{e.message}; the collection stopped before its next run: the #{Plural.count(e.recorded, "run")} " \
        "before are in #{@session.writer.path}; measure the new code in a new collection (another -o)", 2)
    end

    # --reps auto's time budget counts from the start of the collection.
    def deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + @adaptive.budget - (Time.now - @started)

    # The profiled runs, after every timed run (the plan's, on --resume).
    def profile_runs
      return unless @session.profile&.any?

      @session.profile.collect(@session.planned || @session.runs, catalog: @session.catalog, targets: @session.targets,
        timeout: @session.timeout, writer: @session.writer, io: @progress, recorded: @session.runs.size)
    end

    def finish
      path = @session.writer.path
      Finish.new(path, Analysis.new(Store.read(path), first_run: @first_run))
    end

    def stopped(error)
      path = @session.writer.path
      left = @session.runs.size - error.recorded
      "#{error.message}: the run in flight was killed; #{path} keeps every finished run (#{left} left " \
        "to run): #{Printable.command("ractorbench", "run", "--resume", path)} finishes it#{suspect(error)}"
    end

    # A signal to ractorbench alone during a run may have been the run's.
    def suspect(error)
      return "" unless error.suspect

      ". SIG#{Signal.signame(error.signo)} came to ractorbench alone, not to its process group (as Ctrl-C or a closed " \
        "terminal would), while #{error.suspect} ran: if you did not send it, that run did, and is recorded as failed " \
        "if it does so again"
    end

    # The file could not be written (or written back): where its runs are now.
    def failed(error)
      path = error.path
      return error.message unless path && File.file?(path)

      "#{error.message}: fix that, then #{Printable.command("ractorbench", "run", "--resume", path)} finishes it"
    end
  end
end
