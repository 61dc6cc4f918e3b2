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

      # A Struct whose members are read from vernier's JSON, each by the
      # keys that lead to it there (paths: {member => keys}).
      def self.located(paths)
        Struct.new(*paths.keys, keyword_init: true) do
          define_singleton_method(:from) { |json| new(**paths.transform_values { |keys| json.dig(*keys) }) }
        end
      end

      # What is read of vernier's profile (the Firefox profiler's processed
      # format): the milliseconds a sample, the categories (vernier's
      # thread states among them), the threads.
      Recording = located(interval: %w[meta interval], categories: %w[meta categories], threads: %w[threads])
      Category = located(name: %w[name])
      # What is read of a thread: its tables are a column a key, rows by
      # index (a sample's stack, the stack's frame, the frame's function,
      # the function's name in the strings).
      Sampled = located(strings: %w[stringArray], stack_frame: %w[stackTable frame], stack_category: %w[stackTable category],
        frame_func: %w[frameTable func], func_name: %w[funcTable name], func_file: %w[funcTable fileName],
        sample_stack: %w[samples stack], sample_time: %w[samples time], sample_weight: %w[samples weight],
        marker_name: %w[markers name], marker_start: %w[markers startTime], marker_end: %w[markers endTime])
      # The probe's answer: vernier's version, or why it cannot load.
      ProbeAnswer = located(vernier: %w[vernier], reason: %w[reason])

      module_function

      # nil when target can load vernier, else one line saying what is
      # missing and how to get it.
      def problem(target)
        launched = Measure::Launcher.new(target, PROBE, timeout: PROBE_TIMEOUT).call(nil)
        answer = ProbeAnswer.from(launched.record) if launched.record.is_a?(Hash) && !launched.channel_problem
        return nil if answer&.vernier

        why = answer&.reason || "its check did not answer"
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
        recording = Recording.from(JSON.parse(json))
        interval = recording.interval.to_f / 1000.0 # ms a sample
        categories = Array(recording.categories).map { |c| Category.from(c).name }
        summary = Totals.new
        Array(recording.threads).each { |thread| read_thread(Sampled.from(thread), interval, categories, summary) }
        summary
      end

      def read_thread(thread, interval, categories, summary)
        strings = thread.strings
        pauses = gc_pauses(thread)
        Array(thread.sample_stack).each_with_index do |stack, i|
          next unless stack

          func = thread.frame_func[thread.stack_frame[stack]]
          name = strings[thread.func_name[func]]
          file = strings[thread.func_file[func]].to_s
          time = thread.sample_time[i]
          category = Categories.ruby(name, waiting: WAITING.include?(categories[thread.stack_category[stack]]),
            gc: pauses.any? { |from, to| time.between?(from, to) }, own: own?(file))
          count = thread.sample_weight ? thread.sample_weight[i] : 1
          summary.add(category, name, interval * count, count: count)
        end
      end

      # GC pauses, [start, end] in the samples' time.
      def gc_pauses(thread)
        Array(thread.marker_name).each_with_index.filter_map do |name, i|
          [thread.marker_start[i], thread.marker_end[i]] if thread.strings[name] == "GC pause" && thread.marker_end[i]
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
