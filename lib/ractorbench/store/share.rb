# frozen_string_literal: true

module Ractorbench
  module Store
    # One of count readers' share of a file's configurations, by their
    # labels: each reader reads the whole file and folds only its share's
    # runs, so that its table holds whole configurations and as few of them
    # as it can (a reader's templates and lists grow with the configurations
    # it meets: one of half the configurations of a million runs peaked at
    # 142 MB against 183 for half the lines of all of them). String#hash is
    # seeded once a process: readers forked from one process agree.
    Share = Struct.new(:index, :count) do
      def owns?(label) = label.hash % count == index

      def first? = index.zero?
    end
  end
end
