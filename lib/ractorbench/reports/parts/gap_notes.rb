# frozen_string_literal: true

require_relative "../../analysis/rows"
require_relative "notes"
require_relative "../../analysis"

module Ractorbench
  module Reports
    module Parts
      # The gap between each parallel row's speedup and its ideal, in parts
      # (Analysis::Gap): serial's work, CPU beyond serial's with the cost
      # figures that grew, time no CPU ran, and the fixed cost outside the
      # timed work. Rows within a tenth of the ideal need no explaining.
      module GapNotes
        SHOWN = 10
        CLOSE_ENOUGH = 0.9
        # Shorter serial work gets the too-short warning instead: start-up
        # noise would swamp its parts.
        SHORT_SECONDS = 0.05

        module_function

        # profiles: a Profile::Findings, whose difference from serial's
        # profile each line quotes where its row was profiled.
        def lines(rows, profiles = nil)
          serial = rows.select(&:baseline?).to_h { |r| [key(r), r] }
          gaps = rows.select do |r|
            r.work_share && !r.baseline? && r.work_share < CLOSE_ENOUGH &&
              r.speedup * r.messages_time.median.to_f >= SHORT_SECONDS
          end
          lines = gaps.first(SHOWN).map { |r| line(r, serial[key(r)]) + profiled(profiles&.for_row(r)) }
          lines << "  ... and #{gaps.size - SHOWN} more (report --format json has every row's parts)" if gaps.size > SHOWN
          lines
        end

        def key(row) = row.panel

        def line(row, serial)
          cores = row.cores_used || row.workers
          # The figures that grew explain extra CPU only where there was some.
          extra = (row.extra_cpu_share.to_f >= 0.03) ? grown(row, serial) : ""
          "GAP TO IDEAL: #{Notes.label(row)}: #{row.model} #{format("%.2f×", row.speedup)} of #{format("%.2f×", cores.to_f)}: " \
            "of #{cores} cores' time during the timed work, #{pct(row.work_share)} ran serial's work, " \
            "#{pct(row.extra_cpu_share)} was CPU beyond serial's#{" (#{extra})" unless extra.empty?}, " \
            "#{pct(row.idle_share)} ran nothing (waiting for messages, for each other, for the GVL, or other programs)" +
            (row.oversubscribed ? "; W=#{row.workers} is above the #{row.usable_cores} usable cores" : "") +
            fixed(row)
        end

        # What the profile says grew, against serial's profile of the same work.
        def profiled(entry)
          went = entry&.difference&.went
          went ? "; profiled, the #{entry.measure} that grew went #{went}" : ""
        end

        # The cost figures that grew enough to matter, next to serial's.
        def grown(row, serial)
          return "" unless serial

          parts = []
          faults, base_faults = row.minor_faults, serial.minor_faults
          if faults && base_faults && faults - base_faults >= 100 && faults >= 2 * base_faults
            parts << "#{count(faults)} minor page faults vs serial's #{count(base_faults)}: copy-on-write after fork, fresh heaps"
          end
          switches, base_switches = switches(row), switches(serial)
          if switches && base_switches && switches - base_switches >= 50
            parts << "#{count(switches)} context switches vs #{count(base_switches)}"
          end
          gc, base_gc = row.gc_time_ms, serial.gc_time_ms
          parts << "GC #{count(gc)} ms vs #{count(base_gc)} ms" if gc && base_gc && gc - base_gc >= 5
          objects, base_objects = row.allocated_objects, serial.allocated_objects
          if objects && base_objects&.positive? && objects >= 1.1 * base_objects && objects - base_objects >= 10_000
            parts << "#{format("%.1f×", objects / base_objects)} serial's allocated objects"
          end
          parts.join("; ")
        end

        def switches(row)
          v, i = row.voluntary_switches, row.involuntary_switches
          v && i && v + i
        end

        def fixed(row)
          f = row.fixed_cost_seconds
          return "" if f.nil? || f < 0.01

          "; outside the timed work it cost #{format("%.3f", f)} s more than serial's (start-up and tear-down)"
        end

        def pct(share) = format("%.0f%%", share.to_f * 100)

        def count(value) = value.round.to_s.reverse.scan(/\d{1,3}/).join(",").reverse
      end
    end
  end
end
