# frozen_string_literal: true

require "json"
require_relative "totals"
require_relative "../base/paths"
require_relative "../base/printable"
require_relative "../measure/launcher"

module Ractorbench
  module Profile
    # vernier, a gem loaded by the Ruby under test (Ruby >= 3.2.1): samples
    # the Ruby frames of every thread of the run's process, ractors' too,
    # with whether each thread ran, waited for the GVL (stalled) or slept
    # (idle), and GC pauses as markers. It sees neither C functions nor the
    # kernel, nor forked workers (another process), and it samples each
    # thread's time, not CPU: a thread that waits counts as waiting.
    module Vernier
      PROBE = File.join(HARNESS_DIR, "vernier_probe.rb")
      PROBE_TIMEOUT = 60.0
      WAITING = %w[Idle Stalled].freeze
      WORKLOADS = File.join(HARNESS_DIR, "workloads")

      module_function

      # nil when target can load vernier, else one line saying what is
      # missing and how to get it.
      def problem(target)
        launched = Measure::Launcher.new(target, PROBE, timeout: PROBE_TIMEOUT).call(nil)
        record = launched.record if launched.record.is_a?(Hash) && !launched.channel_problem
        return nil if record&.key?("vernier")

        why = record&.fetch("reason", nil) || "its check did not answer"
        "#{target.name} cannot load vernier (#{why}): install it into that Ruby (#{Printable.command(target.argv.first, "-S", "gem", "install", "vernier")}; " \
          "it needs Ruby 3.2.1 or later and a C compiler)"
      rescue SystemCallError => e
        "#{target.name} cannot load vernier (#{e.message})"
      end

      # Runs one profiled run with vernier in the child; gives [launched, [summary, why not], the profile's path].
      def record(target, timeout:)
        Dir.mktmpdir("ractorbench-profile") do |dir|
          out = File.join(dir, "profile.vernier.json")
          launched = yield(target, {"tool" => "vernier", "out" => out})
          summary = File.size?(out) ? [read(File.read(out)), nil] : [nil, "vernier wrote no profile"]
          [launched, summary, (File.binread(out) if File.size?(out))]
        end
      end

      # vernier's profile (the Firefox profiler's format) into Totals.
      def read(json)
        profile = JSON.parse(json)
        interval = profile.dig("meta", "interval").to_f / 1000.0 # ms a sample
        categories = Array(profile.dig("meta", "categories")).map { |c| c["name"] }
        summary = Totals.new
        profile.fetch("threads", []).each { |thread| read_thread(thread, interval, categories, summary) }
        summary
      end

      def read_thread(thread, interval, categories, summary)
        strings = thread["stringArray"]
        stacks = thread["stackTable"]
        frames = thread["frameTable"]
        funcs = thread["funcTable"]
        samples = thread["samples"]
        pauses = gc_pauses(thread, strings)
        weights = samples["weight"]
        samples["stack"].each_with_index do |stack, i|
          next unless stack

          func = frames["func"][stacks["frame"][stack]]
          name = strings[funcs["name"][func]]
          file = strings[funcs["fileName"][func]].to_s
          time = samples["time"][i]
          category = Categories.ruby(name, waiting: WAITING.include?(categories[stacks["category"][stack]]),
            gc: pauses.any? { |from, to| time.between?(from, to) }, own: own?(file))
          count = weights ? weights[i] : 1
          summary.add(category, name, interval * count, count: count)
        end
      end

      # GC pauses, [start, end] in the samples' time.
      def gc_pauses(thread, strings)
        markers = thread["markers"] || {}
        Array(markers["name"]).each_with_index.filter_map do |name, i|
          [markers["startTime"][i], markers["endTime"][i]] if strings[name] == "GC pause" && markers["endTime"][i]
        end
      end

      # Code of the work: the workload's file or the user's, not the
      # harness, a gem or Ruby's own library.
      def own?(file)
        return false if file.empty? || file.start_with?("<") || file.include?("/gems/") || file.include?("/lib/ruby/")
        return true if file.start_with?(WORKLOADS)

        !file.start_with?(HARNESS_DIR)
      end
    end
  end
end
