# frozen_string_literal: true

require_relative "columns"
require_relative "row_outcomes"
require_relative "markdown_text"
require_relative "ops_tables"
require_relative "../../base/console"

module Ractorbench
  module Reports
    module Parts
      # The messaging workload's rates (Analysis::MessageRates) for every
      # human format: a group a shape, payload and size, a line a Ruby and
      # model, the fastest first; each model's rate over the fastest's is
      # the figure that travels between machines. Then how each model sent.
      module MessageTables
        HEADINGS = ["messaging", "ruby", "model", "n", "rate, median [95% interval]", "of the fastest [95%]"].freeze
        LEGEND = "Message passing: messages (one-way, msg/s) or round trips (rt/s) per second, each run's count over its " \
          "messages-only time; of the fastest: this model's median rate over the fastest model's at the same shape, payload, " \
          "size and Ruby, with a bootstrap 95% interval (paired by repetition)."

        module_function

        # For a terminal of layout columns, the prose wrapped at prose (nil:
        # lines kept whole).
        def text(rows, layout, prose: layout)
          return [] if rows.empty?

          columns = Columns.new(HEADINGS, right: [3, 4, 5])
          rows.group_by { |r| panel(r) }.each { |name, list| columns.group(name, list.map { |r| cells(r) }) }
          [Console.wrap(LEGEND, prose), columns.to_s(layout), *notes(rows).map { |l| Console.wrap(l, prose) }]
        end

        def markdown(rows)
          return [] if rows.empty?

          ["", "**Message passing**", "", MarkdownText.row(HEADINGS), MarkdownText.row(HEADINGS.map.with_index { |_, i| (i < 3) ? "---" : "---:" }),
            *rows.map { |r| MarkdownText.row([panel(r), *cells(r)]) }, "", "- #{LEGEND}", *notes(rows).map { |l| "- #{l}" }]
        end

        def figures?(r) = !r.rate.nil?

        # "one-way string 1×20000".
        def panel(r) = "#{r.shape} #{r.payload} #{r.workers}×#{r.messages}"

        def cells(r)
          keys = [r.ruby, r.model]
          return keys + ["", "", "not run (below)"] unless figures?(r)

          [*keys, r.runs.to_s, rate(r), of_fastest(r.of_fastest)]
        end

        def rate(r)
          rate = r.rate
          spread = rate.low ? "[#{short(rate.low)}–#{short(rate.high)}]" : spread(rate)
          "#{short(rate.median)} #{r.unit} #{spread}".strip
        end

        def spread(rate) = rate.relative_spread ? format("± %.0f%%", rate.relative_spread * 100) : ""

        def of_fastest(ratio)
          return "fastest" if ratio.fastest.nil?
          return "-" unless ratio.estimate

          interval = ratio.low ? " [#{two(ratio.low)}–#{two(ratio.high)}]" : " [n<6]"
          "#{two(ratio.estimate)}×#{interval}"
        end

        # Two decimals, or two significant digits below 0.1 (a process's
        # rate is a few thousandths of a fiber's).
        def two(value) = (value >= 0.1) ? format("%.2f", value) : format("%.2g", value)

        def short(value) = OpsTables.significant(value)

        def not_run(rows) = RowOutcomes.not_run(rows, figures: method(:figures?), name: method(:panel))

        # How each model sent its messages, once per kind of shape; then why
        # some rows have no figures.
        def notes(rows)
          shapes = rows.filter_map { |r| [r.model, r.variant] if r.variant }.uniq.sort.map { |model, variant| "#{model}: #{variant}" }
          shapes + not_run(rows) + RowOutcomes.disturbed(rows)
        end
      end
    end
  end
end
