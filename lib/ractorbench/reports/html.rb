# frozen_string_literal: true

require "erb"
require_relative "../plan/configuration"
require_relative "parts/rows"
require_relative "parts/verdict"
require_relative "parts/winners"
require_relative "html/charts"
require_relative "svg/sweep_chart"
require_relative "../analysis/sweep"
require_relative "../analysis/warnings"

require_relative "../reports"

module Ractorbench
  module Reports
    # `report --format html -o FILE`: one self-contained page (inline CSS and
    # SVG, no script, nothing fetched) that works offline. Every name from the
    # results file is escaped: ERB::Util.h in the template, Svg::Canvas in charts.
    module Html
      TEMPLATE = File.join(__dir__, "html", "report.html.erb")

      module_function

      def render(analysis)
        View.new(analysis).render
      end

      # What the template can call.
      class View
        include ERB::Util

        attr_reader :analysis, :rows, :charts

        def initialize(analysis)
          @analysis = analysis
          groups = Parts::Rows.groups(analysis)
          @rows = groups.map { |g| Analysis::Row.for(g, analysis.header) }
          @pairs = groups.zip(@rows)
          @charts = Charts.new(analysis, @pairs)
        end

        def render
          ERB.new(File.read(TEMPLATE), trim_mode: "-").result(binding)
        end

        def header = analysis.header

        def winners = Parts::Winners.for(@pairs)

        # Same total work at several worker counts (`try`), with Amdahl fits.
        def sweeps = Analysis::Sweep.panels(analysis).map { |panel| Svg::SweepChart.new(panel, colour: charts.method(:colour)).to_s }

        def warnings = Analysis::Warnings.for(analysis, rows).map(&:message)

        def note = analysis.first_run.describe

        def verdict_lines = Parts::Verdict.lines(analysis)

        def digests_agree? = analysis.digest_check.agree?

        def title(workload, params) = Plan::Configuration.title(workload, params)

        def machine_facts
          m = header["machine"] || {}
          governors = m["scaling_governors"]&.map { |g, n| "#{g} (#{n} CPUs)" }&.join(", ")
          [["CPU", m["cpu_model"]], ["Cores", "#{m["usable_cores"]} usable of #{m["cores"]}"],
            ["Affinity mask", m["affinity_cores"] && "#{m["affinity_cores"]} CPUs"],
            ["cgroup CPU quota", m["cgroup_cpu_limit"] ? format("%.2f CPUs", m["cgroup_cpu_limit"]) : "none"],
            ["Load average at start", Array(m["load_average"]).join(" / ")],
            ["Frequency governor", governors || "not readable"],
            ["Memory", m["memory_kb"] && format("%.1f GB", m["memory_kb"] / 1024.0 / 1024)],
            ["OS", m["os"]], ["Host", m["hostname"]]].reject { |_, v| v.nil? }
        end

        def rubies
          Array(header["rubies"]).map do |r|
            env = (r["env"] || {}).map { |k, v| "#{k}=#{v}" }.join(" ")
            {name: r["name"], description: r.dig("info", "description"), command: Array(r["argv"]).join(" "), env: env,
             jit: analysis.first_run.jit?(r["name"])}
          end
        end

        def seconds(summary) = Parts::Format.seconds(summary)

        def interval(ci) = Parts::Format.interval(ci)

        def ratio(value) = Parts::Format.ratio(value)

        def percent(value) = Parts::Format.percent(value)

        def speedup_interval(row)
          ci = row["speedup_ci"]
          return "" if row["model"] == Analysis::BASELINE || ci.nil?

          ci["low"] ? format("[%.2f, %.2f]", ci["low"], ci["high"]) : "n<#{Stats::Bootstrap::MIN_SAMPLES}"
        end

        def failures = analysis.runs.select { |r| r["status"] == "failed" }.first(50)
      end
    end

    register("html", Html)
  end
end
