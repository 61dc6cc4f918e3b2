# frozen_string_literal: true

require_relative "../analysis/rows"
require_relative "../plan/configuration"
require_relative "parts/verdict"
require_relative "parts/notes"

require_relative "../reports"
require_relative "../analysis"

module Ractorbench
  module Reports
    # The seeds' own form: Benchmark.bm's user / system / total / (real) per
    # model, and a ">times faster:" row per model dividing the baseline by
    # it, column by column. Benchmark prints NaN where a column is 0 (seed
    # 003's system column); here such a ratio is "-". Figures are medians;
    # each line ends with its run count and the spread of real.
    module Bm
      LABEL_WIDTH = 15
      CAPTION = "      user     system      total        real"
      COLUMNS = %i[user system total real].freeze

      # Medians of a configuration's runs' user and system CPU seconds.
      Cpu = Struct.new(:user, :system, keyword_init: true)
      # A model's line: its COLUMNS, the std dev of real and the run count.
      Figures = Struct.new(*COLUMNS, :stddev, :n, keyword_init: true)

      module_function

      def render(analysis)
        rows = Analysis::Rows.for(analysis)
        blocks = rows.group_by(&:panel)
        [legend, *blocks.map { |panel, group| block(panel, group, analysis) }, Parts::Verdict.lines(analysis)].flatten.join("\n") + "\n"
      end

      def legend
        "user/system: CPU seconds of the whole child process (Ruby start-up included); real: messages-only seconds " \
          "(what Benchmark.bm would time); medians over n runs, ± the std dev of real."
      end

      def block(panel, group, analysis)
        cpu = cpu_by_model(analysis, panel)
        figures = group.to_h { |r| [r.model, figures(r, cpu[r.model])] }
        base = baseline(group, figures, analysis)
        group = group.partition { |r| r.model == base }.flatten
        settings = group.first.settings
        title = "#{panel.title} W=#{panel.workers} M=#{panel.messages} #{panel.ruby}#{" [#{settings}]" if settings}" \
          "#{"; baseline #{base}" if base}"
        lines = ["", title, " " * LABEL_WIDTH + CAPTION]
        group.each { |r| lines << model_line(r, figures[r.model]) }
        group.each do |r|
          next if base.nil? || r.model == base || figures[r.model].nil?

          lines << faster_line(figures[base], figures[r.model], r.model, base)
        end
        lines
      end

      # Medians of each run's user and system CPU, which Rows does not keep.
      def cpu_by_model(analysis, panel)
        analysis.groups.each_with_object({}) do |g, by_model|
          next unless g.panel == panel

          by_model[g.model] = Cpu.new(user: median(g.values("user")), system: median(g.values("system")))
        end
      end

      def figures(row, cpu)
        return nil if row.unsupported || row.samples.to_i.zero? || cpu.nil? || cpu.user.nil?

        Figures.new(user: cpu.user, system: cpu.system, total: cpu.user + cpu.system,
          real: row.messages_time.median, stddev: row.messages_time.stddev, n: row.samples)
      end

      def median(values) = Stats::Descriptive.new(values).median

      # serial where it ran; else a thread model (the seeds' other
      # reference); else the first.
      def baseline(group, figures, analysis)
        measured = group.map { |r| r.model }.select { |m| figures[m] }
        %w[serial thread].each do |family|
          found = measured.find { |m| analysis.family(m) == family }
          return found if found
        end
        measured.first
      end

      def model_line(row, f)
        label = row.model.ljust(LABEL_WIDTH)
        return "#{label}#{row.unsupported}" if row.unsupported
        return "#{label}no successful run (#{row.failed} failed)" unless f

        spread = f.stddev ? format(" ± %.6f", f.stddev) : ""
        format("%s%10.6f %10.6f %10.6f (%10.6f)  n=%d%s", label, f.user, f.system, f.total, f.real, f.n, spread)
      end

      def faster_line(base, other, model, base_name)
        cells = COLUMNS.map { |c| ratio(base[c], other[c]) }
        format("%s%10s %10s %10s (%10s)  %s vs %s", ">times faster:".ljust(LABEL_WIDTH), *cells, base_name, model)
      end

      # baseline / model; "-" where the model's figure is 0 (or missing).
      def ratio(numerator, denominator)
        return "-" if numerator.nil? || denominator.nil? || denominator.zero?

        format("%.6f", numerator / denominator)
      end
    end

    register("bm", Bm, terminal: true)
  end
end
