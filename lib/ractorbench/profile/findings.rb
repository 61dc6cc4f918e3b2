# frozen_string_literal: true

require_relative "records"
require_relative "choice"
require_relative "difference"
require_relative "categories"
require_relative "../plan/configuration"
require_relative "../plan/model_traits"

module Ractorbench
  module Profile
    # What a results file's profiles say, for every report format: each
    # profiled configuration with the baseline's (serial's) profile of the
    # same work and the difference, and what the profiles could not see (a Ruby with no
    # symbols, JIT code with no perf map).
    class Findings
      # Below this share of the interpreter's samples named, the Ruby under
      # test is taken for a stripped build.
      STRIPPED = 0.5
      # Fewer of the interpreter's samples than this tell nothing either way.
      FEW = 20
      # JIT code without a perf map: said when it is this share of a profile.
      UNNAMED_JIT = 0.1

      # record: a Record; serial: the baseline's Record of the same work
      # (nil for a baseline's own entry); baseline: whether this entry's
      # model is a baseline.
      Entry = Struct.new(:record, :serial, :difference, :baseline, keyword_init: true) do
        def key = Findings.key(record)
        def baseline? = baseline || false
        def model = record.model
        def profile = record.profile
        def ok? = record.ok? && !profile.nil?

        # A model this Ruby (or this workload) does not run: nothing to profile.
        def unsupported? = record.unsupported?

        # "core time" (perf: CPU and the run's idle cores) or "thread time"
        # (vernier samples threads, waiting too).
        def measure = Findings.measure(record.tool)
      end

      # The findings of an Analysis (read once a file, however many parts
      # of a report ask).
      def self.of(analysis)
        cache = (@cache ||= ObjectSpace::WeakMap.new)
        cache[analysis] ||= new(analysis.header, analysis.contents.path)
      end

      # The record's panel (Plan::Panel): all models of its workload, size and Ruby.
      def self.key(record) = record.configuration.panel

      def self.measure(tool) = (tool == "vernier") ? "thread time" : "core time"

      attr_reader :asked

      # header: a Store::Header.
      def initialize(header, path)
        choice = Choice.of(header.as_json)
        @asked = choice&.asked
        @notes = Array(choice&.notes)
        @traits = Plan::ModelTraits.of(header.as_json)
        # The Rubies that ran with a JIT on, whose compiled code perf names only through the JIT's perf map.
        @jit_rubies = header.rubies.select { |r| r.probe.features.yjit_enabled || r.probe.features.zjit_enabled }.map(&:name)
        records = (choice && path) ? Records.read(path).values : []
        serial = records.select { |r| @traits.baseline?(r.model) && r.profile }
        by_key = serial.to_h { |r| [Findings.key(r), r] }
        by_jobs = serial.to_h { |r| [jobs(r), r] }
        @entries = records.map do |r|
          baseline = @traits.baseline?(r.model)
          base = baseline ? nil : (by_key[Findings.key(r)] || by_jobs[jobs(r)])
          diff = Difference.new(r.profile, base.profile) if base && r.profile && base.tool == r.tool
          Entry.new(record: r, serial: base, difference: diff, baseline: baseline)
        end.sort_by { |e| [e.key.sort_key, e.baseline? ? "" : e.model.to_s] }
      end

      attr_reader :entries

      def any? = !@entries.empty?

      # The entry of a report's row (a Row's Hash), or nil.
      def for_row(row)
        @by_row ||= @entries.to_h { |e| [[e.key, e.model], e] }
        @by_row[[row.panel, row.model]]
      end

      # The entries of one workload, size and Ruby together (serial first).
      def panels = @entries.chunk_while { |a, b| a.key == b.key }.to_a

      # Why profiles are missing or can see less than they should: the
      # collection's own notes (no perf, a Ruby without vernier), a Ruby
      # with no symbols, JIT code perf could not name.
      def cautions
        lines = @notes.dup
        forked = @entries.select { |e| e.record.tool == "vernier" && @traits.family(e.model) == "process" }.map(&:model).uniq
        unless forked.empty?
          lines << "vernier samples the process it runs in: the profiles of #{forked.join(", ")} hold the supervisor's " \
            "threads, not the forked workers' (--profile=perf samples every process)"
        end
        @entries.select(&:ok?).group_by { |e| e.record.ruby }.each do |ruby, entries|
          stripped = entries.filter_map { |e| e.profile.interpreter }.max_by { |i| i.samples.to_i }
          if stripped && stripped.samples.to_i >= FEW && stripped.unnamed_share > 1 - STRIPPED
            lines << "#{ruby}: the interpreter (#{stripped.library}) has no symbols (a stripped build): " \
              "#{format("%.0f%%", stripped.unnamed_share * 100)} of its #{stripped.samples} samples could not be named, so garbage " \
              "collection, allocation, locks and the interpreter's own work inside it fall together under " \
              "\"#{Categories.label("unnamed")}\"; profile a Ruby with its symbols (one built by ruby-build, rbenv, " \
              "asdf or mise keeps them; Debian's needs its -dbgsym package from the debug archive)"
          end
          jit = entries.map { |e| e.profile.anonymous_share }.max
          if jit > UNNAMED_JIT && @jit_rubies.include?(ruby)
            lines << "#{ruby}: up to #{format("%.0f%%", jit * 100)} of a profile fell in JIT code perf could not name " \
              "(no perf map: this Ruby has no --yjit-perf or --zjit-perf, which came with Ruby 3.3)"
          end
        end
        lines
      end

      private

      def jobs(record) = record.configuration.jobs_key
    end
  end
end
