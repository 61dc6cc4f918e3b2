# frozen_string_literal: true

module Ractorbench
  module Store
    # One of count readers' share of a file's configurations, by their
    # labels: each reader reads the whole file and folds only its share's
    # runs, so that its table holds whole configurations and as few of them
    # as it can (a reader's templates and lists grow with the configurations
    # it meets: one of half the configurations of a million runs peaked at
    # 142 MB against 183 for half the lines of all of them). Labels are dealt
    # out in the order they first appear: every reader meets the same lines
    # in the same order and so deals them alike, and the readers get as many
    # configurations each, give or take one (a checksum of the label left
    # one reader 4% more runs than the other).
    class Share
      def initialize(index, count)
        @index = index
        @count = count
        @owners = {}
      end

      def owns?(label) = (@owners[label] ||= @owners.size % @count) == @index

      def first? = @index.zero?
    end
  end
end
