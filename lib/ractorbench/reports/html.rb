# frozen_string_literal: true

require "erb"
require_relative "../plan/configuration"
require_relative "../analysis/rows"
require_relative "parts/figure_cells"
require_relative "parts/verdict"
require_relative "../analysis/winners"
require_relative "parts/document_builder"
require_relative "parts/profile_tables"
require_relative "html/charts"
require_relative "html/verdict_boxes"
require_relative "svg/sweep_chart"
require_relative "../analysis/sweep"
require_relative "../analysis/ops_per_second"
require_relative "parts/ops_tables"
require_relative "parts/message_tables"
require_relative "parts/memory_tables"

require_relative "../reports"
require_relative "parts/format"

module Ractorbench
  module Reports
    # `report --format html -o FILE`: one self-contained page (inline CSS and
    # SVG, no script, nothing fetched) that works offline. Every name from the
    # results file is escaped: ERB::Util.h in the template, Svg::Canvas in charts.
    # It answers first (a verdict per workload, or try's recommendation and
    # diagnosis), then draws the charts, then lists every figure; it reads on
    # a phone (tables scroll in their own box, charts scale, text >= 11 px).
    module Html
      TEMPLATE = File.join(__dir__, "html", "report.html.erb")
      # One template a section of the document (Parts::Document): html/sections/ID.html.erb.
      SECTIONS = File.join(__dir__, "html", "sections")
      # The answer before the evidence: these sections head the page, the
      # rest follow in the report's order.
      FIRST = %i[answer verdict cautions ops].freeze
      # The page's CSS, shared with `report --by`'s page (reports/sides/html.rb).
      STYLE = File.join(__dir__, "html", "style.css")

      def self.style = File.read(STYLE)

      module_function

      # try_outcome: what `try` concluded (an Advisor::Outcome), for a file
      # `try` wrote; its page opens with it.
      def render(analysis, try_outcome: nil)
        View.new(analysis, try_outcome).render
      end

      # Each section of the document by its template (Parts::Document#write).
      class Writer
        def initialize(view)
          @view = view
        end

        %i[answer verdict cautions ops messages memory figures profiles].each do |id|
          define_method(id) { |section| @view.section_html(id.to_s, section) }
        end

        # Sentences under a heading: the notes, the gaps to the ideal, the VM.
        %i[notes gaps vm].each do |id|
          define_method(id) { |section| section.content.empty? ? "" : @view.section_html("lines", section) }
        end
      end

      # What the template can call.
      class View
        include ERB::Util

        attr_reader :analysis, :rows, :charts, :try_outcome, :document

        def initialize(analysis, try_outcome = nil)
          @analysis = analysis
          @try_outcome = try_outcome
          @document = Parts::DocumentBuilder.for(analysis)
          @pairs = document[:figures].content.pairs
          @rows = @pairs.map(&:last)
          @charts = Charts.new(analysis, @pairs)
        end

        def render
          ERB.new(File.read(TEMPLATE), trim_mode: "-").result(binding)
        end

        # The page's sections, in its layout.
        def sections = document.write(Writer.new(self), first: FIRST)

        # A section by its template, html/sections/NAME.html.erb, which reads
        # `section` and this view.
        def section_html(name, section)
          ERB.new(File.read(File.join(SECTIONS, "#{name}.html.erb")), trim_mode: "-").result(binding)
        end

        def header = analysis.header

        def style = Html.style

        # Each lead's test is made once for the page (the verdicts and the winners' table read them).
        def winners = document[:answer].content.winners

        # Same total work at several worker counts (`try`), with Amdahl fits.
        def sweeps = Analysis::Sweep.panels(analysis).map { |panel| Svg::SweepChart.new(panel, colour: charts.method(:colour)) }

        # Seed 001's tables (ops/s), [[table, rows], ...]; the time-based
        # sections are left out of a page that has nothing else.
        def ops_tables = @ops_tables ||= Analysis::OpsPerSecond.tables(analysis)

        def warnings = document[:cautions].content.warnings.map(&:message)

        # One box per workload: the answer before the evidence.
        def verdict_boxes = @verdict_boxes ||= VerdictBoxes.new(winners).boxes

        # A diagnosis's terminal lines as [label, text, code lines] fields,
        # unwrapped: the page wraps them to its own width.
        def diagnosis_fields(diagnosis)
          diagnosis.lines.drop(1).each_with_object([]) do |line, fields|
            if (m = line.match(/\A  (\w+):\s+(.*)\z/))
              fields << [m[1], m[2], []]
            elsif (m = line.match(/\A {11}(\S.*)\z/)) && fields.any?
              fields.last[2] << m[1]
            elsif fields.any?
              fields.last[1] = "#{fields.last[1]} #{line.strip}"
            end
          end
        end

        def busy? = Parts::Verdict.busy?(analysis)

        def inconclusive = Parts::Verdict.inconclusive(analysis)

        def badge(sureness) = VerdictBoxes::BADGES.fetch(sureness)

        def note = document[:cautions].content.note

        def verdict_lines = document[:verdict].content

        def digests_agree? = analysis.digest_check.agree?

        def title(workload, params) = Charts.short_title(workload, params)

        def full_title(workload, params) = Plan::Configuration.title(workload, params)

        # The warnings' gist for the one line they fold under.
        def warnings_gist
          codes = document[:cautions].content.warnings.map(&:code)
          codes.map { |c| WARNING_GIST.fetch(c, c.tr("_", " ")) }.uniq.join(", ")
        end

        WARNING_GIST = {"few_samples" => "too few runs", "spread" => "noisy runs", "slow_first_run" => "slow first runs",
                        "outliers" => "outliers", "load_before" => "a busy machine", "load_during" => "a busy machine",
                        "disturbed" => "disturbed runs", "limited_cores" => "limited cores",
                        "oversubscribed" => "more workers than cores", "governor" => "CPU frequency scaling",
                        "too_short" => "work too short", "idle_worker" => "idle workers"}.freeze

        def machine_facts
          m = header.machine
          governors = m.scaling_governors&.map { |g, n| "#{g} (#{n} CPUs)" }&.join(", ")
          [["CPU", m.cpu_model], ["Cores", "#{m.usable_cores} usable of #{m.cores}"],
            ["Affinity mask", m.affinity_cores && "#{m.affinity_cores} CPUs"],
            ["cgroup CPU quota", m.cgroup_cpu_limit ? format("%.2f CPUs", m.cgroup_cpu_limit) : "none"],
            ["Load average at start", Array(m.load_average).join(" / ")],
            ["Frequency governor", governors || "not readable"],
            ["Memory", m.memory_kb && format("%.1f GB", m.memory_kb / 1024.0 / 1024)],
            ["OS", m.os], ["Host", m.hostname]].reject { |_, v| v.nil? }
        end

        def rubies
          header.rubies.map do |r|
            env = (r.env || {}).map { |k, v| "#{k}=#{v}" }.join(" ")
            {name: r.name, description: r.info.description, command: Array(r.argv).join(" "), env: env,
             jit: analysis.first_run.jit?(r.name)}
          end
        end

        def seconds(summary) = Parts::Format.seconds(summary)

        def ratio(value) = Parts::Format.ratio(value)

        def percent(value) = Parts::Format.percent(value)

        def speedup_interval(row) = Parts::FigureCells::Speedup.of(row).interval(missing: "n<#{Stats::Bootstrap::MIN_SAMPLES}")

        def failures = analysis.crashed_runs.first(50)

        # Where the time went (a file collected with --profile).
        def profiles = document[:profiles].content

        def profile_tables = @profile_tables ||= Parts::ProfileTables.tables(profiles)

        def profile_cautions = profiles.cautions
      end
    end

    register("html", Html, extension: "html", browser: true, try: true)
  end
end
