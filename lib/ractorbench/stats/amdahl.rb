# frozen_string_literal: true

module Ractorbench
  module Stats
    # The serial fraction f of Amdahl's law, S(n) = 1 / (f + (1 - f) / n),
    # fitted to measured speedups by least squares on its reciprocal form:
    #
    #   1/S - 1/n = f * (1 - 1/n)
    #
    # a line through the origin in x = 1 - 1/n, y = 1/S - 1/n, so
    # f = sum(x*y) / sum(x^2), with standard error sqrt(sum(r^2) / (k - 1) /
    # sum(x^2)) over the k points with n > 1 (n = 1 carries no information:
    # x = 0). f near 0: the work parallelises; f near 1: it does not; f > 1:
    # more workers made it slower than serial, which Amdahl's law cannot
    # describe. 1/f is the most any number of workers could give.
    class Amdahl
      attr_reader :fraction, :stderr, :points

      # pairs: [[n, speedup], ...]
      def initialize(pairs)
        usable = pairs.select { |n, s| n.to_f > 1 && s.to_f.positive? }
        xs = usable.map { |n, _| 1 - 1.0 / n }
        ys = usable.map { |n, s| 1.0 / s - 1.0 / n }
        @points = usable.size
        sxx = xs.sum { |x| x * x }
        return if sxx.zero?

        @fraction = xs.zip(ys).sum { |x, y| x * y } / sxx
        residuals = xs.zip(ys).sum { |x, y| (y - @fraction * x)**2 }
        @stderr = (@points > 1) ? Math.sqrt(residuals / (@points - 1) / sxx) : nil
      end

      def fitted? = !fraction.nil?

      # Where noise can put f for work that does not parallelise at all.
      FLAT = (0.95..1.1)
      # Below this, f < 0 is noise around 0, not superlinear scaling.
      NOISE = 0.02
      # Below this, the ceiling 1/f is too far out to mean anything.
      LINEAR = 0.02

      # :linear (|f| < 0.02), :scales (0.02 <= f < 0.95), :superlinear
      # (f < -0.02: faster than one worker per core, e.g. caches), :flat
      # (f ~ 1: no gain), :worse (more workers made it slower; Amdahl's law
      # cannot say that), or nil.
      def kind
        return nil unless fitted?
        return :superlinear if fraction < -NOISE
        return :linear if fraction < LINEAR
        return :scales if fraction < FLAT.begin

        FLAT.cover?(fraction) ? :flat : :worse
      end

      def describes? = %i[linear scales superlinear].include?(kind)

      # The ceiling 1/f; nil when f <= 0 (no ceiling seen) or unfitted.
      def max_speedup
        if fitted?
          fraction.positive? ? 1.0 / fraction : nil
        end
      end

      # The fitted curve at n workers.
      def speedup_at(n)
        return nil unless fitted?

        denominator = fraction + (1 - fraction) / n.to_f
        denominator.positive? ? 1.0 / denominator : nil
      end
    end
  end
end
