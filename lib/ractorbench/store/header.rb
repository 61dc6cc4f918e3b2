# frozen_string_literal: true

require "json"
require_relative "../base/errors"
require_relative "../base/json_object"
require_relative "../base/numbers"
require_relative "../rubies/probe"

module Ractorbench
  module Store
    # The first line of a results file: the tool, the command, the machine,
    # the Rubies and the plan. Checked once here (Header.read), so a damaged
    # or foreign header is one clear line instead of an error wherever a
    # report looks into it; read by method past it. The plan, the models'
    # traits, try's findings and the profile's record stay the JSON they are:
    # their own readers (Plan::Matrix, Plan::ModelTraits, Advisor::TryFindings,
    # Profile) take them from here.
    class Header < JsonObject
      # The machine a collection ran on (Measure::Machine.describe).
      class Machine < JsonObject
        members :cpu_model, :cores, :usable_cores, :affinity_cores, :cgroup_cpu_limit, :load_average, :memory_kb, :os,
          :hostname, :scaling_governors

        # What tells two machines apart: the description less what changes
        # from one collection to the next on one machine (the load).
        def identity = JSON.generate(@json.except("load_average").sort.to_h)
      end

      # A Ruby under test as the collection started and probed it
      # (Rubies::Target#to_h).
      class Ruby < JsonObject
        members :name, :argv, :env
        member :info, Rubies::Probe

        # Its probe, by the name a Target gives it (InterpreterSettings reads either).
        def probe = info
      end

      # A collection a merged file joined: its file, its header (less its
      # plan), and the name merge gave its machine.
      class Source < JsonObject
        members :file, :machine_name
        member :header, Header
      end

      # What `ractorbench merge` records of the files it joined.
      class Merged < JsonObject
        members :plan
        list :sources, Source
      end

      members :type, :tool, :version, :command, :created_at, :seed, :timeout, :scale, :suite, :reps, :load, :families,
        :shapes, :baselines, :ceilings, :vouched_by, :plan, :ruby_bench, :shard, :try, :profile, :fields
      member :machine, Machine
      member :merged, Merged
      list :rubies, Ruby

      SHAPES = {
        "command" => [String], "machine" => [Hash], "rubies" => [Array], "plan" => [Hash],
        "seed" => [Integer], "timeout" => [Numeric], "load" => [Array], "families" => [Hash], "shapes" => [Hash],
        "baselines" => [Hash], "ceilings" => [Hash], "vouched_by" => [Hash],
        "shard" => [Hash], "merged" => [Hash], "fields" => [Array]
      }.freeze
      # Numbers a report divides by, rounds or counts with, and what each
      # must be when present. Every other number in a header need only be
      # finite and bounded (Numbers).
      CORES = ["a whole number of at least 1", ->(v) { v.is_a?(Integer) && v >= 1 }].freeze
      POSITIVE = ["a number above 0", ->(v) { v.is_a?(Numeric) && v.positive? }].freeze
      NATURAL = ["a whole number of 0 or more", ->(v) { v.is_a?(Integer) && v >= 0 }].freeze
      NUMBERS = {
        %w[machine cores] => CORES, %w[machine usable_cores] => CORES, %w[machine affinity_cores] => CORES,
        %w[machine memory_kb] => NATURAL, %w[machine cgroup_cpu_limit] => POSITIVE, %w[timeout] => POSITIVE,
        %w[scale] => POSITIVE, %w[seed] => NATURAL
      }.freeze

      # The header of the file at path, checked.
      def self.read(path, json) = new(check(path, json))

      # The Ruby of this name, or nil.
      def ruby(name) = rubies.find { |r| r.name == name }

      # Written by `ractorbench merge`.
      def merged? = !merged.as_json.nil?

      def self.check(path, header)
        SHAPES.each do |field, types|
          next unless header.key?(field) && !header[field].nil?
          next if types.any? { |type| header[field].is_a?(type) }

          damaged(path, "its #{field} is a #{json_type(header[field])}")
        end
        rubies = header.fetch("rubies", nil) || []
        damaged(path, "its rubies are not objects with a name") unless rubies.all? { |r| r.is_a?(Hash) && r["name"].is_a?(String) }
        runs = header.dig("plan", "runs")
        damaged(path, "its plan's runs are not a list") unless runs.nil? || runs.is_a?(Array)
        check_numbers(path, header)
        header
      end

      def self.check_numbers(path, header)
        if (where, value = Numbers.first_unbounded(header))
          damaged(path, "its #{where} is #{Numbers.shown(value)}, not a finite number under 10^18")
        end
        NUMBERS.each do |keys, (wanted, ok)|
          value = keys.reduce(header) { |node, key| node.is_a?(Hash) ? node[key] : nil }
          damaged(path, "its #{keys.join(".")} is #{value.inspect}, not #{wanted}") unless value.nil? || ok.call(value)
        end
        load = header.dig("machine", "load_average")
        return if load.nil? || (load.is_a?(Array) && load.all? { |v| v.is_a?(Numeric) && v >= 0 })

        damaged(path, "its machine.load_average is not a list of numbers from 0")
      end

      def self.damaged(path, what)
        raise UsageError, "#{path} has a damaged header (#{what}); it cannot be reported or resumed: run the collection again"
      end

      def self.json_type(value)
        case value
        when Hash then "JSON object"
        when Array then "JSON list"
        when String then "string"
        when Numeric then "number"
        else value.inspect
        end
      end
    end
  end
end
