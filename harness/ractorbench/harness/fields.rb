# frozen_string_literal: true

module Ractorbench
  module Harness
    # Every field of a run record, declared once: the child, its models and
    # workloads write through it (Record), the driver builds a run's line
    # through it, and what the store keeps and checks, the analysis's
    # medians, the row, the CSV and the text report's cost columns are read
    # off it. A new per-run figure is one `field` line here plus the code
    # that measures it.
    # Standard library only: the measured child loads this file, on any Ruby
    # from 3.1 to 4.x, and so does the driver.
    module Fields
      # The wire between child and driver (Channel and Measure::ResultChannel).
      RESULT_FD = "RACTORBENCH_RESULT_FD"
      # The key of the mark a child sends when its measured part ends.
      MEASURED = "measured_part_ended"
      # A run's status, as the driver's Outcome makes it of the child's own
      # word for how it went (ok, wrong_result, unsupported, error).
      STATUSES = %w[ok failed unsupported].freeze

      # What a field holds, as the store checks it (Store::RunRecord.field):
      # a CHECKED kind is checked on every line read, a KEPT one kept as written.
      CHECKED = %i[text printed_text count seconds amount status boolean params printed printed_lines].freeze
      KEPT = %i[string number list object].freeze
      # Who writes a field: the plan (the driver, before the run), the child
      # (its timing, checks and run costs), a worker (what a model or a
      # workload measured of its own), the driver (how the run ended, what it
      # saw from outside), or `merge` (the machine a merged run came from).
      WRITERS = %i[plan child worker driver merge].freeze
      # How the analysis summarises a field over a configuration's runs:
      # identity (the same in every run: what makes them one configuration),
      # timing (median, interval, outliers: the figures verdicts are made of),
      # median (a median per configuration: a row member, and a CSV or text
      # column where `columns` says), combined (into a figure of its own, such
      # as user + system into CPU seconds), count (how many runs), or none.
      SUMMARIES = %i[identity timing median combined count none].freeze
      # Where a median figure has a column: the CSV, the text report's costs.
      COLUMNS = %i[csv text].freeze

      Field = Struct.new(:name, :kind, :writer, :summary, :title, :unit, :columns, :required, :read, keyword_init: true) do
        def writers = Array(writer)
        def checked? = CHECKED.include?(kind)
        def median? = summary == :median
        def column?(report) = columns.include?(report)
        # Whether the analysis reads it over a configuration's runs: every
        # field it summarises, and those declared read.
        def read? = read || !(summary.nil? || summary == :none)
        def to_h = super.transform_keys(&:to_s).except("required", "read")
      end

      UnknownField = Class.new(StandardError)
      Clash = Class.new(StandardError)

      @table = {}
      # Fields declared after the built-in ones, by the file that declared
      # them (a --load file's): recorded in the results header, so a report
      # knows them without loading that file.
      @added = {}

      class << self
        # name: its key in the record; kind: what it holds (CHECKED + KEPT);
        # writer: who writes it (WRITERS, one or a list); summary: SUMMARIES;
        # title and unit: how a report names it; columns: COLUMNS; required:
        # every run line has it (the store skips a line without it); read:
        # the analysis reads it over a configuration's runs though it does
        # not summarise it. The store keeps in memory the fields the
        # analysis reads (read?); any other is left in the file and read
        # back from the run's line when a report shows the run whole.
        def field(name, kind, writer, summary = :none, title: nil, unit: nil, columns: [], required: false, read: false)
          field = Field.new(name: name.to_s, kind: kind, writer: writer, summary: summary, title: title, unit: unit,
            columns: columns, required: required, read: read)
          check(field)
          @table[field.name] = field.freeze
          checks[field.name] = field.kind if field.checked?
          self
        end

        # A field a --load file adds: the same as one here, recorded in the
        # header (added). The same declaration twice is one field.
        def declare(name, kind:, writer: :worker, summary: :none, title: nil, unit: nil, columns: [])
          known = @table[name.to_s]
          wanted = Field.new(name: name.to_s, kind: kind, writer: writer, summary: summary, title: title, unit: unit,
            columns: columns, required: false, read: false)
          return known if known == wanted
          raise Clash, "field #{name} is declared already, as #{known.to_h.compact}" if known

          field(name, kind, writer, summary, title: title, unit: unit, columns: columns)
          @added[name.to_s] = caller_locations(1, 1).first.absolute_path
          @table.fetch(name.to_s)
        end

        def all = @table.values

        def names = @table.keys

        # What the store checks of each field it checks: {name => kind}.
        # Kept up to date as fields are declared (a --load file's too).
        def checks = @checks ||= {}

        def required = all.select(&:required)

        # The names of the fields the analysis reads (Field#read?): this
        # table's and those a results header records (its "fields", list).
        def kept(list = nil) = (all + recorded(list)).select(&:read?).map(&:name).uniq

        # The fields the files declared, as a results header records them
        # ("fields", omitted when there are none).
        def header(files)
          fields = @added.select { |_, file| files.include?(file) }.map { |name, _| @table.fetch(name).to_h.compact }
          fields.empty? ? {} : {"fields" => fields}
        end

        # The field, or UnknownField naming it and who wrote it.
        def fetch(name, writer = nil)
          @table.fetch(name) do
            by = writer ? " (written by #{writer})" : ""
            raise UnknownField, "#{name.inspect}#{by} is no field of a run record: declare it in " \
              "harness/ractorbench/harness/fields.rb, or with Ractorbench::Harness::Fields.declare in the file that writes it"
          end
        end

        # Median figures in table order (a row's members, Group#cost).
        def medians = all.select(&:median?)

        # Median figures with a column in report (:csv, :text), in table order.
        def shown_in(report) = medians.select { |f| f.column?(report) }

        # The fields of another table (a results header's "fields": what
        # declare added there) as Fields, for a report that has not loaded
        # the file that declared them.
        def recorded(list)
          Array(list).filter_map do |h|
            next unless h.is_a?(Hash) && h["name"].is_a?(String)

            @table[h["name"]] || Field.new(name: h["name"], kind: h["kind"]&.to_sym, writer: h["writer"]&.to_sym,
              summary: h["summary"]&.to_sym, title: h["title"], unit: h["unit"], columns: Array(h["columns"]).map(&:to_sym)).freeze
          end
        end

        private

        def check(field)
          raise ArgumentError, "field #{field.name}: kind #{field.kind.inspect} is not one of #{(CHECKED + KEPT).join(", ")}" unless (CHECKED + KEPT).include?(field.kind)
          raise ArgumentError, "field #{field.name}: writer #{field.writer.inspect} is not among #{WRITERS.join(", ")}" unless (field.writers - WRITERS).empty? && !field.writers.empty?
          raise ArgumentError, "field #{field.name}: summary #{field.summary.inspect} is not one of #{SUMMARIES.join(", ")}" unless SUMMARIES.include?(field.summary)
          raise ArgumentError, "field #{field.name}: columns #{field.columns.inspect} are not among #{COLUMNS.join(", ")}" unless (field.columns - COLUMNS).empty?
          raise ArgumentError, "field #{field.name}: a column needs a median and a title" if !field.columns.empty? && !(field.median? && field.title)
        end
      end

      # The plan's: what makes runs one configuration, and which run this is.
      field "type", :string, :plan
      field "id", :printed_text, :plan, required: true, read: true
      field "seq", :count, :plan, read: true
      field "started_at", :string, :plan
      field "load_average_1m", :amount, :driver, read: true
      field "workload", :text, :plan, :identity, required: true
      field "model", :text, :plan, :identity, required: true
      field "ruby", :text, :plan, :identity, required: true
      field "workers", :count, :plan, :identity, required: true
      field "messages", :count, :plan, :identity, required: true
      field "params", :params, :plan, :identity
      field "rep", :count, :plan, required: true, read: true

      # The child's: its times, its check of the results, how it ended.
      field "status", :status, %i[child driver], :count, required: true
      field "reason", :printed, %i[child driver]
      field "scope", :string, :child
      field "backtrace", :printed_lines, :child
      field "messages_time", :seconds, :child, :timing, title: "messages-only", unit: "s"
      field "digest", :string, :child, read: true
      field "results", :number, :child
      field "peak_rss_kb", :amount, :child, :combined, title: "peak memory", unit: "KB"
      field "setup_time", :number, :child, unit: "s"
      field "finish_time", :number, :child, unit: "s"
      # What the timed work cost beyond its time (RunCost), one median each.
      field "messages_cpu", :amount, :child, :median, title: "CPU", unit: "s"
      field "minor_faults", :amount, :child, :median, title: "minor faults", unit: "faults", columns: %i[csv text]
      field "major_faults", :amount, :child, :median, title: "major faults", unit: "faults", columns: %i[csv text]
      field "voluntary_switches", :amount, :child, :median, title: "voluntary sw", unit: "switches", columns: %i[csv text]
      field "involuntary_switches", :amount, :child, :median, title: "involuntary sw", unit: "switches", columns: %i[csv text]
      field "allocated_objects", :amount, :child, :median, title: "objects", unit: "objects", columns: %i[csv text]
      field "gc_count", :amount, :child, :median, title: "GC runs", unit: "collections", columns: %i[csv text]
      field "gc_time_ms", :amount, :child, :median, title: "GC ms", unit: "ms", columns: %i[csv text]
      # An ops-per-second run's own measurement (Harness::OpsMeter).
      field "ops", :object, :child, read: true

      # A worker's: what a model or a workload measured of its own.
      field "worker_jobs", :list, :worker, read: true
      field "worker_batches", :list, :worker
      field "workers_reported", :number, :worker
      field "workers_peak_rss_kb", :amount, :worker, :combined, title: "workers' peak memory", unit: "KB"
      field "workers_pss_kb", :amount, :worker, read: true
      field "supervisor_pss_kb", :amount, :worker, read: true
      field "variant", :string, :worker, read: true
      field "gc", :string, :worker
      field "units", :number, :worker
      field "nodes", :number, :worker
      field "hops", :number, :worker
      field "moved_unusable", :boolean, :worker
      # The memory scenarios' (workloads/memory.rb): resident memory kept
      # after a full GC, and the peak during the scenario, both above the
      # resident memory before it; summarised by Analysis::MemoryScenarios.
      field "kept_kb", :amount, :worker, title: "kept memory", unit: "KB", read: true
      field "scenario_peak_kb", :amount, :worker, title: "scenario peak memory", unit: "KB", read: true
      field "memory_settle", :string, :worker, read: true
      field "build_time", :number, :worker, unit: "s"
      field "creation", :string, :worker
      field "warmup", :number, :worker
      field "gc_scope", :string, :worker
      field "workers_created_at_s", :number, :worker, unit: "s"
      field "values", :string, :worker
      field "worker_gc_count", :list, :worker
      field "worker_gc_time_ms", :list, :worker

      # The driver's: how the run ended and what it saw from outside.
      field "whole_time", :seconds, :driver, :timing, title: "whole-process", unit: "s"
      field "failure", :printed, :driver
      field "stderr_head", :printed_lines, :driver
      field "stderr_tail", :printed_lines, :driver
      field "user", :seconds, :driver, :combined, unit: "s"
      field "system", :seconds, :driver, :combined, unit: "s"
      field "settings", :object, :driver
      field "others_cpu", :seconds, :driver, unit: "s", read: true
      field "steal", :seconds, :driver, unit: "s", read: true
      field "disturbed", :boolean, :driver, :count
      field "collector_stopped", :seconds, :driver, unit: "s", read: true
      field "waited_for_quiet", :number, :driver, unit: "s"
      field "non_finite", :object, :driver
      field "machine", :string, :merge, read: true

      # One record being written: each field by name, through the table. A
      # name the table lacks, one the writer may not write, or one another
      # writer wrote already, is an error here, where it is written, not a
      # figure silently lost or replaced further on. The same writer may
      # write a field again (a model run twice in one process).
      class Record
        # role: a WRITERS entry (or a list: the driver reads the child's
        # record, its workers' fields in it); who: how errors name the writer.
        def initialize(role, who = role.to_s)
          @role = role
          @who = who
          @data = {}
          @writers = {}
        end

        def []=(name, value)
          write(name, value)
        end

        # role, who: another writer of the same record (the child's record
        # takes its run's costs and its model's figures).
        def write(name, value, role = @role, who = @who)
          name = name.to_s
          field = Fields.fetch(name, who)
          if (field.writers & Array(role)).empty?
            raise Clash, "#{name} is written by the #{field.writers.join(" or ")}, not by #{who}: give #{who}'s figure a field of its own"
          end
          _, first = @writers[name]
          raise Clash, "#{name} was written by #{first} and again by #{who}: give one of them a field of its own" if first && first != who

          @writers[name] = [role, who]
          @data[name] = value
        end

        # Every field of a Hash (or another Record, with its writers).
        def merge!(fields, role = @role, who = @who)
          if fields.is_a?(Record)
            fields.each_writer { |name, value, r, w| write(name, value, r, w) }
          else
            fields.each { |name, value| write(name, value, role, who) }
          end
          self
        end

        def each_writer
          @data.each { |name, value| yield name, value, *@writers[name] }
        end

        def [](name) = @data[name.to_s]

        def key?(name) = @data.key?(name.to_s)

        def to_h = @data.dup
      end
    end
  end
end
