# frozen_string_literal: true

require_relative "../../../harness/ractorbench/harness"
require_relative "../base/errors"
require_relative "../base/paths"

module Ractorbench
  module Plan
    # What can be run: the workloads and models under harness/ (one file each)
    # plus any a user loads with --load. The driver loads the same files the
    # child does, to list them and to check names and parameters up front.
    class Plan::Catalog
      Entry = Struct.new(:name, :description, :file, :implementation, *Harness::Model::TRAITS, keyword_init: true)

      def self.default
        @default ||= new
      end

      attr_reader :files

      def initialize(extra_files = [])
        @files = []
        @companions = {}
        @workloads = {}
        @models = {}
        Dir[File.join(HARNESS_DIR, "workloads", "*.rb")].sort.each { |f| add(f) }
        Dir[File.join(HARNESS_DIR, "models", "*.rb")].sort.each { |f| add(f) }
        extra_files.each { |f| add(f) }
      end

      def with(extra_files)
        extra_files.empty? ? self : self.class.new(extra_files)
      end

      def workloads = @workloads.values
      def models = @models.values

      def workload(name)
        @workloads.fetch(name) { raise UsageError, unknown("workload", name, @workloads.keys) }
      end

      # nil, or why a run of spec would no longer measure what was planned
      # (its workload's `stale`: try's file changed since the check).
      def stale(spec)
        impl = workload(spec.workload).implementation
        impl.stale(impl.default_params.merge((spec.params || {}).transform_keys(&:to_sym)))
      end

      def model(name)
        @models.fetch(name) { raise UsageError, unknown("model", name, @models.keys) }
      end

      # {"threads" => "thread", ...}: recorded in a results header, so a
      # report knows what each model is without loading it.
      def families = @models.transform_values(&:family).compact

      # {"ractors-split" => "split", ...}: how each model hands out work
      # (Harness::Model::SHAPES), recorded beside the families.
      def shapes = @models.transform_values(&:shape).compact

      # {"threads" => "queue = ...", ...}: the Ruby a user can copy for each
      # model that declares one.
      def patterns = @models.transform_values(&:pattern).compact

      # {"serial" => true}: the models speedups are measured against.
      def baselines = @models.select { |_, m| m.baseline }.transform_values { true }

      # {"ractors-split" => ["ractors", ...]}: the per-job models each split
      # model is the ceiling of.
      def ceilings = @models.reject { |_, m| Array(m.ceiling_of).empty? }.transform_values(&:ceiling_of)

      # {"ractors" => ["ractor"], ...}: the checks of `try` that vouch for
      # each model (Harness::Model::CHECKS).
      def vouched_by = @models.reject { |_, m| Array(m.vouched_by).empty? }.transform_values(&:vouched_by)

      # The keys under which a results header records the models' traits.
      TRAIT_KEYS = %w[families shapes baselines ceilings vouched_by].freeze

      # Every model trait a results header records, so a report knows what
      # each model is without loading it (Plan::ModelTraits reads them back).
      def traits = TRAIT_KEYS.to_h { |key| [key, public_send(key)] }

      # The files a child must load to run this workload under this model:
      # the workload's, what it takes along (with_companions), the model's.
      def files_for(workload_name, model_name)
        [workload(workload_name).file, *@companions[workload_name], model(model_name).file].uniq
      end

      # This catalog, its children loading `files` right after the
      # workload's own file (a ruby-bench checkout's loader for `ruby-bench`).
      def with_companions(workload_name, files)
        workload(workload_name)
        dup.tap { |copy| copy.companions = @companions.merge(workload_name => files.dup.freeze) }
      end

      protected

      attr_writer :companions

      private

      def add(file)
        path = File.expand_path(file)
        raise UsageError, "cannot read #{file}: no such file" unless File.file?(path)

        before = {"workload" => Harness.workloads.dup, "model" => Harness.models.dup}
        load_plugin(path, file)
        before.each { |kind, known| taken!(kind, known, file, path) }
        @files << path
        index(@workloads, Harness.workloads)
        index(@models, Harness.models)
      end

      def load_plugin(path, shown)
        require path
      rescue SyntaxError => e
        raise UsageError, "#{shown} has a syntax error: #{e.message.lines.first.strip}"
      rescue ScriptError, StandardError => e
        raise UsageError, "#{shown} failed to load: #{e.class}: #{e.message}"
      rescue SystemExit => e
        # exit or abort at load time would end ractorbench itself, silently.
        raise UsageError, "#{shown} called exit (status #{e.status}) while loading; a --load file must only define " \
          "workloads or models"
      end

      # A name a loaded file gives that ractorbench (or a file loaded before)
      # already has would be run and recorded under the other's name: the
      # registry is put back and the file refused.
      def taken!(kind, known, shown, path)
        registry = (kind == "workload") ? Harness.workloads : Harness.models
        name, = registry.find { |n, impl| impl.file == path && known.key?(n) && !known[n].equal?(impl) }
        return unless name

        registry[name] = known[name]
        raise UsageError, "#{shown} defines #{kind} #{name.inspect}, a name ractorbench already has (#{known[name].file}): " \
          "give yours another name"
      end

      # Harness's registry is process-wide; this catalog shows only what its
      # own files define.
      def index(into, registry)
        registry.each_value do |impl|
          next unless @files.include?(impl.file)

          traits = impl.is_a?(Harness::Model) ? Harness::Model::TRAITS.to_h { |t| [t, impl.public_send(t)] } : {}
          into[impl.name] = Entry.new(name: impl.name, description: impl.description, file: impl.file, implementation: impl, **traits)
        end
      end

      def unknown(kind, name, known)
        "unknown #{kind} #{name.inspect}; known: #{known.sort.join(", ")} (see `ractorbench list`)"
      end
    end
  end
end
