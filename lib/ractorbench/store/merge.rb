# frozen_string_literal: true

require "json"
require "time"
require_relative "../store"
require_relative "machines"
require_relative "../base/output_path"
require_relative "../plan/shard"
require_relative "../plan/catalog"
require_relative "../plan/run_spec"
require_relative "../plan/matrix"
require_relative "../base/plural"
require_relative "../base/version"
require_relative "../base/errors"
require_relative "../base/printable"

module Ractorbench
  module Store
    # `ractorbench merge`: results files of one plan (its shards, or the
    # whole plan run on several machines, or files merge wrote before) into
    # one. Refused, before anything is written: files of different plans, a
    # run twice on one machine (one file given twice, a shard run twice), a
    # damaged file. Each machine's header is kept under "merged", and each
    # run names its machine, so reports can set machines side by side.
    class Merge
      # The runs of one machine from one input, and the headers that
      # describe them (one per collection).
      Part = Struct.new(:file, :identity, :sources, :runs, :plan_runs, keyword_init: true)

      attr_reader :parts, :machine_names, :unfinished

      # allow_partial: merge collections that are not finished (each named
      # in #unfinished); refused otherwise.
      def initialize(paths, allow_partial: false)
        paths.each { |path| OutputPath.regular!(path, "cannot read") }
        twice!(paths)
        @inputs = paths.map { |path| [path, whole(Store.read(path))] }
        @parts = @inputs.flat_map { |path, contents| parts_of(path, contents) }
        same_plan!
        @unfinished = @inputs.filter_map { |path, contents| unfinished_of(path, contents) }
        finished! unless allow_partial
        @machines = @parts.group_by(&:identity)
        once!
        @machine_names = Machines.names(@machines.values.map { |ps| Header.new(ps.first.sources.first["header"]) }).zip(@machines.keys)
          .to_h { |name, identity| [identity, name] }
      end

      def runs = @parts.sum { |p| p.runs.size }

      # The merged file's text: a header, then every run with its machine's name.
      def text(command)
        lines = [JSON.generate(header(command))]
        @parts.each do |part|
          name = @machine_names.fetch(part.identity)
          part.runs.each { |run| lines << JSON.generate(run.to_h.merge("machine" => name)) }
        end
        lines.join("\n") + "\n"
      end

      # Shards of N none of whose files was given: "2/3".
      def missing_shards
        shards = @parts.flat_map { |p| p.sources.filter_map { |s| s.dig("header", "shard") } }
        shards.group_by { |s| s["count"] }.flat_map do |count, given|
          ((1..count).to_a - given.map { |s| s["index"] }).map { |i| "#{i}/#{count}" }
        end
      end

      private

      def twice!(paths)
        paths.combination(2).each do |a, b|
          same = (a == b) || (File.exist?(a) && File.exist?(b) && File.identical?(a, b))
          raise UsageError, "#{b} is given twice#{" (as #{a})" unless a == b}: merge each results file once" if same
        end
      end

      # A damaged line would silently drop a run from the merged file.
      def whole(contents)
        path = contents.path
        if contents.truncated
          raise UsageError, "#{path} ends in a cut-off line (its collection was stopped mid-write): " \
            "#{Printable.command("ractorbench", "run", "--resume", path)} completes it, then merge"
        end
        number, why = (contents.skipped || []).first
        raise UsageError, "#{path} is damaged (line #{number}: #{why}); merge takes whole results files only" if number

        contents
      end

      def parts_of(path, contents)
        header = contents.header.as_json
        sources = header.dig("merged", "sources")
        planned = Plan::Matrix.planned(header["plan"]).map(&:to_h)
        plan_runs = planned.empty? ? contents.runs.map(&:to_h) : planned
        unless sources.is_a?(Array) && !sources.empty?
          source = {"file" => File.basename(path), "header" => header.except("plan")}
          return [Part.new(file: path, identity: identity(header), sources: [source], runs: contents.runs, plan_runs: plan_runs)]
        end

        # A file merge wrote: each of its machines, with its collections.
        by_name = contents.runs.group_by(&:machine)
        sources.group_by { |s| s["machine_name"] }.map do |name, of_machine|
          Part.new(file: path, identity: identity(of_machine.first["header"]),
            sources: of_machine.map { |s| s.except("machine_name") }, runs: by_name.fetch(name, []), plan_runs: plan_runs)
        end
      end

      # What tells a header's machine from another's (a header as JSON).
      def identity(header) = Header.new(header).machine.identity

      def fingerprint(path)
        header = @inputs.assoc(path).last.header.as_json
        header.dig("shard", "plan") || header.dig("merged", "plan") ||
          Plan::Shard.fingerprint(@parts.find { |p| p.file == path }.plan_runs)
      end

      def same_plan!
        first, *rest = @inputs.map(&:first)
        @plan = fingerprint(first)
        other = rest.find { |path| fingerprint(path) != @plan }
        return unless other

        raise UsageError, "#{other} is from another plan than #{first} (#{describe(other)}, against #{describe(first)}): " \
          "merge joins the shards of one plan, or one plan run on several machines"
      end

      def describe(path)
        header = @inputs.assoc(path).last.header.as_json
        runs = @parts.find { |p| p.file == path }.plan_runs
        count = header.dig("shard", "plan_runs") || runs.size
        "#{count} runs of #{runs.map { |r| r["workload"] }.uniq.sort.join(", ")}"
      end

      # "b.jsonl (0 of its 5 planned runs)" for a collection (not a merged
      # file) that has not run its whole plan; nil when it has.
      def unfinished_of(path, contents)
        planned = Plan::Matrix.planned(contents.header.plan)
        return nil if contents.header.merged? || planned.empty?

        have = contents.runs.to_h { |r| [r.id, true] }
        ids = planned.map(&:id)
        done = ids.count { |id| have.key?(id) }
        "#{path} (#{done} of its #{Plural.count(ids.size, "planned run")})" if done < ids.size
      end

      def finished!
        return if @unfinished.empty?

        raise UsageError, "#{@unfinished.join(", ")} #{(@unfinished.size > 1) ? "are" : "is"} unfinished: finish each " \
          "with #{Printable.command("ractorbench", "run", "--resume", "FILE")}, or give --allow-partial to merge what there is"
      end

      # A run twice on one machine: a file or a shard given twice.
      def once!
        @machines.each_value do |parts|
          seen = {}
          parts.each do |part|
            part.runs.each do |run|
              if (first = seen[run.id])
                raise UsageError, "#{part.file} and #{first} both hold run #{run.id} of one machine: merge each " \
                  "collection once (a shard given twice, or a file merged into another already?)"
              end
              seen[run.id] = part.file
            end
          end
        end
      end

      def header(command)
        first = @parts.first.sources.first["header"]
        headers = @parts.flat_map { |p| p.sources.map { |s| s["header"] } }
        plan = @parts.flat_map(&:plan_runs).uniq { |r| r.values_at("workload", "model", "workers", "messages", "params", "ruby", "rep") }
        {
          "type" => "header", "tool" => Store::TOOL, "version" => VERSION, "command" => command,
          "created_at" => Time.now.utc.iso8601, "seed" => first["seed"], "timeout" => headers.filter_map { |h| h["timeout"] }.max,
          "scale" => first["scale"], "suite" => first["suite"], "reps" => first["reps"],
          "machine" => first["machine"], "rubies" => headers.flat_map { |h| Array(h["rubies"]) }.uniq { |r| r["name"] },
          "load" => headers.flat_map { |h| Array(h["load"]) }.uniq,
          **Plan::Catalog::TRAIT_KEYS.to_h { |key| [key, traits(headers, key)] },
          "plan" => merged_plan(first["seed"], plan),
          "merged" => {"plan" => @plan, "sources" => sources}
        }.merge(fields(headers))
      end

      # The merged plan by its recipe when every file recorded the same one
      # and together they plan all of it (the shards of one plan); else every
      # planned run listed.
      def merged_plan(seed, runs)
        plans = @inputs.map { |_, contents| contents.header.plan }
        same = plans.all? { |p| p.is_a?(Hash) && p["recipe"] } && plans.map { |p| p.values_at("seed", "recipe") }.uniq.size == 1
        whole = same && Plan::Matrix.from_recipe(plans.first.except("shard"))
        (whole && whole.runs.size == runs.size) ? whole.to_h : {"seed" => seed, "runs" => runs}
      rescue *Plan::Matrix::DAMAGED
        {"seed" => seed, "runs" => runs}
      end

      # The fields --load files declared (Harness::Fields.header), each once.
      def fields(headers)
        fields = headers.flat_map { |h| Array(h["fields"]) }.uniq { |f| f["name"] }
        fields.empty? ? {} : {"fields" => fields}
      end

      # Every collection's model traits, the first collection's where two differ.
      def traits(headers, key) = headers.map { |h| h[key] || {} }.reduce({}) { |all, t| t.merge(all) }

      def sources
        @parts.flat_map do |part|
          part.sources.map { |s| s.merge("machine_name" => @machine_names.fetch(part.identity)) }
        end
      end
    end
  end
end
