# frozen_string_literal: true

require_relative "categories"

module Ractorbench
  module Profile
    # A model's profile against serial's profile of the same work: which
    # categories grew, by how much CPU (perf) or thread time (vernier).
    # Each side is one profiled run, so the only noise a difference can be
    # judged against is the sampling's own: a category's count of samples
    # varies by about its square root, and a change within twice the
    # square root of both counts together is not claimed.
    class Difference
      Change = Struct.new(:category, :seconds, :noise, keyword_init: true) do
        def grew? = seconds > noise
        def shrank? = -seconds > noise
        def label = Categories.label(category)
      end

      NOISE_SIGMAS = 2.0
      # Not the run's: said apart, never among what grew.
      OTHERS = "others"
      # Other programs' extra core time, as a share of the model's, worth a word.
      OTHERS_WORTH = 0.05

      attr_reader :mine, :serial, :changes

      # mine, serial: the Summary of two profile records.
      def initialize(mine, serial)
        @mine = mine
        @serial = serial
        @changes = Categories::KEYS.map { |key| change(key) }.sort_by { |c| [-c.seconds, c.category] }
      end

      def extra = mine.seconds.to_f - serial.seconds.to_f

      def grown = changes.select { |c| c.grew? && c.category != OTHERS }

      # How much more of the run's cores other programs took than of serial's.
      def others = changes.find { |c| c.category == OTHERS }

      # Other programs' share is said when it is a part of the picture: perf
      # records on the run's cores, so a profiled run on an idle machine has
      # a few ms of "others" that are perf itself, and a difference of those
      # few ms says nothing about the machine.
      def others_worth_saying? = others&.grew? && others.seconds >= OTHERS_WORTH * mine.seconds.to_f

      # Of what grew beyond the noise, each category's share.
      def shares
        total = grown.sum(&:seconds)
        return [] unless total.positive?

        grown.map { |c| [c, c.seconds / total] }
      end

      # "58% to garbage collection (+0.18 s), 22% to VM locks and barriers
      # (+0.07 s)", or nil when nothing grew beyond the noise.
      def went
        parts = shares.first(3).map { |c, share| "#{format("%.0f%%", share * 100)} to #{c.label} (+#{seconds(c.seconds)})" }
        parts.empty? ? nil : parts.join(", ")
      end

      # What a reader is told, measure: "core time" or "thread time".
      def sentence(measure)
        totals = "#{seconds(mine.seconds)} vs serial's #{seconds(serial.seconds)}"
        busy = others_worth_saying? ? "; other programs (perf's own recording among them) took #{seconds(others.seconds)} more of its cores" : ""
        if (text = went)
          more = extra.positive? ? "#{seconds(extra)} more #{measure} than serial's" : "no more #{measure} than serial's in all"
          "#{more} (#{totals}); what grew went #{text}#{busy}"
        else
          "no category of its own grew beyond sampling noise (#{measure}: #{totals})#{busy}"
        end
      end

      def to_h
        {"extra_seconds" => extra.round(6),
         "changes" => changes.map { |c| {"category" => c.category, "seconds" => c.seconds.round(6), "noise" => c.noise.round(6), "grew" => c.grew?} },
         "grown" => shares.map { |c, share| {"category" => c.category, "seconds" => c.seconds.round(6), "share" => share.round(4)} }}
      end

      private

      def change(key)
        periods = [mine, serial].map(&:period)
        # Idle cores are counted from the samples too: as many samples' worth.
        counts = [mine, serial].zip(periods).map do |p, length|
          p.samples_in(key) + (length.positive? ? p.idle_in(key) / length : 0)
        end
        noise = NOISE_SIGMAS * Math.sqrt(counts.sum) * periods.max
        Change.new(category: key, seconds: mine.seconds_in(key) - serial.seconds_in(key), noise: noise)
      end

      def seconds(value) = Difference.seconds(value)
    end

    # "1.23 s" or "45 ms": a size of seconds, unsigned.
    def Difference.seconds(value)
      v = value.to_f.abs
      (v >= 1) ? format("%.2f s", v) : format("%.0f ms", v * 1000)
    end
  end
end
