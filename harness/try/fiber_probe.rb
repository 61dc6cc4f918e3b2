# frozen_string_literal: true

require_relative "../ractorbench/harness/async_support"

module Ractorbench
  module Harness
    module Try
      # Whether this Ruby's Fiber scheduler overlaps the wait in `work`: one
      # fiber runs work on an item while another ticks (sleeps a millisecond
      # at a time, which every scheduler overlaps) and counts the ticks it
      # made while work was running. A wait the scheduler hooks (sleep, IO
      # reads on most Rubies) lets the ticker run; one it does not (IO.select
      # where Ruby has no hook for it) blocks the thread, and with it every
      # fiber: no tick. An observation of what happened, not a timing.
      module FiberProbe
        TICK = 0.001
        # Work shorter than this many ticks shows nothing either way.
        MIN_TICKS = 5

        module_function

        # {"overlaps" => true/false, "ticks" => n, "seconds" => s} for the
        # first item long enough to tell, {"unknown" => why} otherwise.
        def call(target, items)
          reason = AsyncSupport.unsupported_reason
          return {"unknown" => reason} if reason

          items.first(3).each do |item|
            ticks, seconds = watch(target, item)
            next if seconds < TICK * MIN_TICKS

            return {"overlaps" => ticks.positive?, "ticks" => ticks, "seconds" => seconds.round(6),
                    "async" => AsyncSupport.version}
          end
          {"unknown" => "each item took under #{(TICK * MIN_TICKS * 1000).round} ms: too short to tell"}
        end

        def watch(target, item)
          working = false
          done = false
          ticks = 0
          seconds = 0.0
          AsyncSupport.run do |task|
            ticker = task.async do
              until done
                sleep(TICK)
                ticks += 1 if working
              end
            end
            task.async do
              sleep(TICK) # the ticker waits first: it is running when work starts
              started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
              working = true
              target.work(item)
              seconds = Process.clock_gettime(Process::CLOCK_MONOTONIC) - started
            ensure
              working = false
              done = true
            end.wait
            ticker.wait
          end
          [ticks, seconds]
        end
      end
    end
  end
end
