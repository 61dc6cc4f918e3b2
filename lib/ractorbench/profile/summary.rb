# frozen_string_literal: true

require_relative "json_value"

module Ractorbench
  module Profile
    # One profile, summed (Totals#summary): what the record of a profiled
    # run keeps of it, so that a report needs neither perf nor the profile
    # file. seconds: its whole time (CPU, and for perf the run's idle cores
    # too); samples: how many; categories: {category => seconds}, every
    # category; category_samples: {category => samples}, those that have
    # any; top: the Functions that took the most; unnamed: {library =>
    # samples} with no symbol; interpreter: the Interpreter's own samples;
    # capacity: the cores the run could use, and idle: {category => idle
    # seconds charged to it}. The last three are perf's only (else nil).
    Summary = Struct.new(:seconds, :samples, :categories, :category_samples, :top, :unnamed, :interpreter, :capacity, :idle,
      keyword_init: true) do
      include JsonValue

      def self.from(hash)
        super&.tap do |summary|
          summary.top = Summary::Function.list(summary.top) unless summary.top.nil?
          summary.interpreter = Summary::Interpreter.from(summary.interpreter)
        end
      end

      def seconds_in(category) = categories.to_h[category].to_f

      def samples_in(category) = category_samples.to_h[category].to_i

      def idle_in(category) = idle.to_h[category].to_f

      # The seconds one sample stands for.
      def period
        cpu = seconds.to_f - idle.to_h.values.sum
        samples.to_i.positive? ? cpu / samples.to_i : 0.0
      end

      # Of its samples, the share that fell in code with no symbol in
      # anonymous memory: JIT code perf could not name.
      def anonymous_share
        anonymous = unnamed.to_h.select { |library, _| library.start_with?("anonymous memory") }.values.sum
        samples.to_i.positive? ? anonymous.to_f / samples.to_i : 0.0
      end
    end

    # A function (with its category) and the self time it took.
    Summary::Function = Struct.new(:function, :category, :seconds, :samples, keyword_init: true) do
      include JsonValue
    end

    # The samples in the interpreter's own library (its executable or
    # libruby), and how many of them had no symbol: a stripped build's tell.
    Summary::Interpreter = Struct.new(:library, :samples, :unnamed, keyword_init: true) do
      include JsonValue

      def unnamed_share = samples.to_i.positive? ? unnamed.to_f / samples.to_i : 0.0
    end
  end
end
