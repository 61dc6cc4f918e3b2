# frozen_string_literal: true

require "yaml"
require "open3"
require_relative "entry"
require_relative "catalog"
require_relative "../base/errors"
require_relative "../base/printable"
require_relative "../../../harness/ractorbench/harness/ruby_bench/layout"

module Ractorbench
  module Plan
    # A ruby-bench checkout (`--ruby-bench DIR`): the benchmarks its
    # benchmarks.yml marks `ractor: true`, each an entry of the `ruby-bench`
    # workload, whose children load the checkout's own harness/loader.rb.
    # A folder that is not a ruby-bench checkout is one line, exit 2.
    class RubyBench
      WORKLOAD = "ruby-bench"
      WORKERS = [1, 2].freeze
      BLOCKS = [1].freeze
      Layout = Harness::RubyBench::Layout

      # The models the workload has a crew for (its CREWS), in its order:
      # what a checkout runs under unless -m says otherwise.
      def self.models = Catalog.default.workload(WORKLOAD).implementation::CREWS.keys

      # One Ractor-capable benchmark: its script (relative to the checkout,
      # nil when it has none), whether it is Ractor-only (splits its work by
      # the ractor count it is given), its Gemfile and any file Git LFS left
      # as a pointer.
      Benchmark = Struct.new(:name, :description, :ractor_only, :script, :gemfile, :lfs_pointers, keyword_init: true)

      attr_reader :dir, :benchmarks

      def self.at(given)
        path = File.expand_path(given)
        raise UsageError, "--ruby-bench #{given}: no such folder; give a ruby-bench checkout (git clone https://github.com/ruby/ruby-bench)" unless File.directory?(path)

        new(File.realpath(path), given)
      end

      # What a results header keeps, for --resume and for readers.
      def self.from_h(hash)
        at(hash.fetch("dir"))
      end

      def initialize(dir, given = dir)
        @dir = dir
        @given = given
        check_layout!
        @benchmarks = read_benchmarks
      end

      # Entries of the named benchmarks (all without names), in benchmarks.yml's order.
      def entries(names:, models:, workers:, blocks:)
        chosen = names ? names.map { |n| benchmark(n) } : benchmarks
        configs = (workers || WORKERS).product(blocks || BLOCKS)
        chosen.map { |b| Entry.new(workload: WORKLOAD, models: models || RubyBench.models, configs: configs, params: {"benchmark" => b.name}) }
      end

      def catalog(base) = base.with_companions(WORKLOAD, [File.join(dir, Layout::LOADER)])

      def to_h = {"dir" => dir, "commit" => commit}.compact

      def benchmark(name)
        found = benchmarks.find { |b| b.name == name }
        return found if found

        if @all.key?(name)
          raise UsageError, "ruby-bench benchmark #{name} is not marked `ractor: true` in #{config_path}; ractorbench runs the " \
            "Ractor-capable ones: #{benchmarks.map(&:name).join(", ")}"
        end
        raise UsageError, "no ruby-bench benchmark #{Printable.name(name).inspect} in #{config_path}; the Ractor-capable ones: " \
          "#{benchmarks.map(&:name).join(", ")}"
      end

      private

      def config_path = File.join(@given, Layout::CONFIG)

      def check_layout!
        unless File.file?(File.join(dir, Layout::CONFIG))
          raise UsageError, "#{@given} is not a ruby-bench checkout: it has no #{Layout::CONFIG} (give the folder of a clone of " \
            "https://github.com/ruby/ruby-bench)"
        end
        return if Layout.harness_convention?(dir)

        raise UsageError, "#{@given} is not a ruby-bench checkout: its #{Layout::LOADER} does not pick the harness with " \
          "`require \"harness\"`, so ractorbench cannot give its benchmarks a harness of its own"
      end

      def read_benchmarks
        @all = parse
        ractor = @all.select { |_, meta| meta.is_a?(Hash) && (meta["ractor"] || meta["ractor_only"]) }
        raise UsageError, "#{config_path} marks no benchmark `ractor: true`: nothing for ractorbench to run" if ractor.empty?

        ractor.map do |name, meta|
          unless name.is_a?(String) && name.match?(Layout::NAME)
            raise UsageError, "#{config_path} names a benchmark #{Printable.name(name.to_s).inspect}, which cannot be a file's name"
          end

          describe(name, meta)
        end
      end

      def parse
        data = YAML.safe_load_file(File.join(dir, Layout::CONFIG))
        return data if data.is_a?(Hash)

        raise UsageError, "#{config_path} is not a list of benchmarks by name (it holds #{data.class}); is this a ruby-bench checkout?"
      rescue Psych::Exception => e
        raise UsageError, "#{config_path} cannot be read: #{e.message.lines.first.strip}"
      rescue SystemCallError => e
        raise UsageError, "#{config_path} cannot be read: #{e.message}"
      end

      def describe(name, meta)
        script = Layout.script(dir, name)
        Benchmark.new(name: name, description: meta["desc"].to_s, ractor_only: meta["ractor_only"] ? true : false, script: script,
          gemfile: script && Layout.gemfile(dir, script), lfs_pointers: script ? Layout.lfs_pointers(dir, script) : [])
      end

      # The checkout's commit, when it is a git clone and git is here.
      def commit
        out, status = Open3.capture2("git", "-C", dir, "rev-parse", "HEAD", err: File::NULL)
        status.success? ? out.strip : nil
      rescue SystemCallError
        nil
      end
    end
  end
end
