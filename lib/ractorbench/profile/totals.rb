# frozen_string_literal: true

require "set"
require_relative "categories"
require_relative "summary"

module Ractorbench
  module Profile
    # One profile, summed: the seconds each category took, the functions
    # that took the most (self time: the function the sample was in), and
    # the stacks for a flame view (folded: "category;function;... count").
    # What the record of a profiled run keeps is its Summary, so that a
    # report needs neither perf nor the profile file.
    class Totals
      TOP = 15

      attr_reader :seconds, :samples
      # The processes sampled (a JIT's perf map is named after each).
      attr_reader :pids
      # The cores the run could use (perf: its idle ones are counted too).
      attr_accessor :capacity

      def initialize
        @categories = Hash.new(0.0)
        @category_samples = Hash.new(0)
        @functions = Hash.new { |h, k| h[k] = [0.0, 0] }
        @folded = Hash.new(0)
        @seconds = 0.0
        @samples = 0
        @unnamed = Hash.new(0)
        @pids = Set.new
        @idle = Hash.new(0.0)
        @interpreter = Summary::Interpreter.new(library: nil, samples: 0, unnamed: 0)
      end

      # function: the name shown (with its library where it has no name);
      # stack: the frames for the flame view below the category, root first;
      # count: how many samples it stands for (seconds are theirs together).
      def add(category, function, seconds, stack: [function], count: 1)
        @categories[category] += seconds
        @category_samples[category] += count
        entry = @functions[[function, category]]
        entry[0] += seconds
        entry[1] += count
        @folded[([category] + stack).map { |f| f.to_s.tr(";", ",") }.join(";")] += count
        @seconds += seconds
        @samples += count
      end

      # Time the run's cores sat idle, charged to a category (IdleCores):
      # kept apart from CPU, shown as a function of its own.
      def add_idle(category, function, seconds)
        return unless seconds.positive?

        @categories[category] += seconds
        @idle[category] += seconds
        @functions[[function, category]][0] += seconds
        @seconds += seconds
      end

      # A sample that fell in code with no symbol, by the library it was in.
      def unnamed_in(library) = @unnamed[library] += 1

      # A sample in the interpreter's own library (its executable or
      # libruby): how many of them had a symbol says whether the Ruby under
      # test was stripped.
      def interpreter_sample(library, named:)
        @interpreter.library ||= library
        @interpreter.samples += 1
        @interpreter.unnamed += 1 unless named
      end

      # {category => seconds}, every category in the table's order.
      def categories = Categories::KEYS.to_h { |k| [k, @categories[k].round(6)] }

      # {category => samples}, the categories that have any.
      def category_samples = Categories::KEYS.filter_map { |k| [k, @category_samples[k]] if @category_samples[k].positive? }.to_h

      def top(count = TOP)
        @functions.sort_by { |(name, _), (secs, _)| [-secs, name] }.first(count).map do |(name, category), (secs, n)|
          Summary::Function.new(function: name, category: category, seconds: secs.round(6), samples: n)
        end
      end

      # Samples with no symbol, by library: {library => samples}.
      def unnamed = @unnamed.sort_by { |_, n| -n }.to_h

      def folded = @folded.sort.map { |stack, n| "#{stack} #{n}\n" }.join

      def summary
        Summary.new(seconds: seconds.round(6), samples: samples, categories: categories, category_samples: category_samples,
          top: top, unnamed: unnamed, interpreter: (@interpreter.dup if @interpreter.samples.positive?),
          capacity: capacity, idle: (@idle.transform_values { |v| v.round(6) } if capacity))
      end

      # The summary as the record's JSON has it.
      def to_h = summary.to_h
    end
  end
end
