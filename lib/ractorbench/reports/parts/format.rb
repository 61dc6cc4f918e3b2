# frozen_string_literal: true

module Ractorbench
  module Reports
    module Parts
      # Number formatting shared by the human-readable formats.
      module Format
        module_function

        def seconds(summary)
          return "-" if summary.samples.to_i.zero?

          spread = summary.stddev ? " ± #{fixed(summary.stddev)}" : " (n=1)"
          "#{fixed(summary.median)}#{spread}"
        end

        def fixed(value, digits = 4)
          value.nil? ? "-" : format("%.#{digits}f", value)
        end

        def ratio(value)
          value.nil? ? "-" : format("%.2f×", value)
        end

        def megabytes(kb)
          kb.nil? ? "-" : format("%.1f", kb / 1024.0)
        end

        def percent(value)
          value.nil? ? "-" : format("%.0f%%", value * 100)
        end

        # The first run's time (first: a row's first_run; metric: the
        # time's field name), marked when it is left out of the statistics.
        def first_run(first, metric)
          return "-" unless first && first[metric]

          fixed(first[metric]) + (first.excluded ? " (apart)" : "")
        end
      end
    end
  end
end
