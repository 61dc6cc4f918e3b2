# frozen_string_literal: true

require_relative "../../store"
require_relative "../../store/machines"
require_relative "../../analysis"
require_relative "../comparison"
require_relative "../../base/errors"

module Ractorbench
  class Analysis
    class Analysis::Comparison
      # Builds what `compare` compares from its arguments: several results
      # files (the first is the baseline), the Rubies of one file (--by ruby),
      # or the machines of a file `merge` wrote (--by machine). `report --by`
      # sets the same sides side by side.
      module Sides
        FIELDS = Plan::Configuration::KEYS

        Built = Struct.new(:baseline, :others, :key_fields, :analyses, keyword_init: true)

        module_function

        def files(paths, first_run:, err:)
          analyses = paths.map { |p| analysis(p, first_run, err) }
          labels = labels(paths)
          sides = analyses.zip(labels).map { |a, l| Side.new(label: l, groups: a.groups, paired: false, header: a.header) }
          Built.new(baseline: sides.first, others: sides.drop(1), key_fields: key_fields(analyses),
            analyses: analyses.zip(labels))
        end

        def by_ruby(path, baseline_name, first_run:, err:)
          analysis = analysis(path, first_run, err)
          names = ruby_names(analysis)
          if names.size < 2
            raise UsageError, "#{path} has one Ruby (#{names.join}); --by ruby compares the Rubies of one collection: " \
              "run it with two --ruby NAME=COMMAND"
          end
          base = baseline_name || names.first
          raise UsageError, "--baseline #{base.inspect} is not a Ruby of #{path}; it has: #{names.join(", ")}" unless names.include?(base)

          sides = names.map do |name|
            Side.new(label: name, groups: analysis.groups.select { |g| g.ruby == name }, paired: name != base, header: analysis.header)
          end
          Built.new(baseline: sides.find { |s| s.label == base }, others: sides.reject { |s| s.label == base },
            key_fields: FIELDS - ["ruby"], analyses: [[analysis, File.basename(path)]])
        end

        # Each machine its own analysis (its cores, its Rubies); runs of two
        # machines are never paired.
        def by_machine(path, baseline_name, first_run:, err:)
          contents = read(path, err)
          machines = Store::Machines.of(contents)
          if machines.size < 2
            raise UsageError, "#{path} holds the runs of one machine (#{machines.first.name}); --by machine sets machines " \
              "side by side: `ractorbench merge` results files collected on several machines, then use the merged file"
          end
          names = machines.map(&:name)
          base = baseline_name || names.first
          raise UsageError, "--baseline #{base.inspect} is not a machine of #{path}; it has: #{names.join(", ")}" unless names.include?(base)

          analyses = machines.map do |m|
            [Analysis.new(Store::Contents.new(path: path, header: m.header, runs: m.runs, truncated: false, skipped: []),
              first_run: first_run), m.name]
          end
          sides = analyses.map { |a, name| Side.new(label: name, groups: a.groups, paired: false, header: a.header) }
          Built.new(baseline: sides.find { |s| s.label == base }, others: sides.reject { |s| s.label == base },
            key_fields: key_fields(analyses.map(&:first)), analyses: analyses)
        end

        def read(path, err)
          contents = Store.read(path)
          Store.warnings(contents).each { |line| err.puts("ractorbench: warning: #{line}") }
          contents
        end

        def analysis(path, first_run, err)
          Analysis.new(read(path, err), first_run: first_run)
        end

        # The header's order, so the first --ruby of a collection is the baseline.
        def ruby_names(analysis)
          listed = analysis.header.rubies.map(&:name)
          used = analysis.groups.map(&:ruby).uniq
          (listed & used) + (used - listed)
        end

        # Files name their sides; full paths only where base names collide.
        def labels(paths)
          names = paths.map { |p| File.basename(p) }
          (names.uniq.size == names.size) ? names : paths
        end

        # Ruby names match across files when the files share them; two files
        # of one Ruby each (say ruby-3.3 and ruby-3.4) compare whatever their
        # Rubies are called.
        def key_fields(analyses)
          rubies = analyses.map { |a| a.groups.map(&:ruby).uniq.sort }
          (rubies.uniq.size > 1 && rubies.all? { |r| r.size == 1 }) ? FIELDS - ["ruby"] : FIELDS
        end
      end
    end
  end
end
