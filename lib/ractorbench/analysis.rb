# frozen_string_literal: true

require_relative "plan/catalog"
require_relative "plan/configuration"
require_relative "plan/model_traits"
require_relative "store/run_table"
require_relative "analysis/digest_check"
require_relative "analysis/first_run"
require_relative "analysis/group"
require_relative "analysis/row"

module Ractorbench
  # Turns the runs of a results file into one row per configuration
  # (workload, model, workers, messages, parameters, ruby): statistics of
  # both times, speedup over the baseline (a model declared one: serial),
  # CPU use, memory, failures.
  class Analysis
    attr_reader :contents, :digest_check, :groups, :first_run

    # first_run: a FirstRun mode (auto, include, exclude).
    def initialize(contents, first_run: "auto")
      @contents = contents
      @runs = Store::RunTable.of(contents.runs)
      @digest_check = Analysis::DigestCheck.new(@runs.columns, baseline: method(:baseline?))
      @first_run = Analysis::FirstRun.new(first_run, contents.header)
      @groups = @runs.columns.map { |columns| Group.new(columns, @digest_check, traits: traits, first_run: @first_run) }
      link_baselines
    end

    # Every run of the file, in its order (a Store::RunTable of RunViews).
    attr_reader :runs

    def succeeded = groups.sum { |g| g.succeeded_count }
    def unsupported = groups.sum(&:unsupported_count)
    def failed = groups.sum(&:failed_count)

    def header = contents.header

    def disturbed = groups.sum(&:disturbed_count)

    # A group's figures (Row.for), made once however many parts of a report
    # read them (the HTML page's tables, charts and sweeps all do).
    def row(group) = rows_made[group] ||= Row.for(group, header)

    def row_made?(group) = rows_made.key?(group)

    # Figures made elsewhere (Analysis::Rows makes them in parts).
    def keep_rows(groups, rows) = groups.zip(rows) { |group, row| rows_made[group] = row }

    # Runs that recorded a failure (crash, timeout, error), in file order:
    # gathered from the groups, not by walking every run of the file.
    def crashed_runs = in_file_order(groups.flat_map(&:crashed_runs))

    def disturbed_runs = in_file_order(groups.flat_map(&:runs_disturbed))

    # Whether runs recorded what the rest of the machine did (files from
    # before that have only load averages).
    def interference_recorded? = groups.any?(&:interference_recorded?)

    # What each model is (family, shape, baseline, ceilings, checks), as
    # the header recorded it, else derived for an older file.
    def traits = @traits ||= Plan::ModelTraits.of(header.as_json)

    # A model's family (serial, thread, process, ractor, fiber).
    def family(model) = traits.family(model)

    # How the model hands out work ("split", "batches", ...), as recorded.
    def shape(model) = traits.shape(model)

    # Whether speedups are measured against this model.
    def baseline?(model) = traits.baseline?(model)

    private

    def rows_made = @rows_made ||= {}.compare_by_identity

    def in_file_order(runs) = runs.sort_by(&:number)

    def link_baselines
      bases = groups.select(&:baseline_model?)
      baselines = bases.to_h { |g| [g.panel, g] }
      # Serial ignores the worker count, so a serial run of the same jobs
      # (workers x messages) at another count is the same computation: a
      # sweep (`try`) measures serial once instead of at every count.
      same_jobs = bases.sort_by { |g| g.workers.to_i }.reverse.to_h { |g| [g.jobs_key, g] }
      groups.each { |g| g.baseline = baselines[g.panel] || same_jobs[g.jobs_key] }
    end
  end
end
