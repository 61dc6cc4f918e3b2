# frozen_string_literal: true

require_relative "../../../harness/ractorbench/harness/batch_pace"
require_relative "../base/console"

module Ractorbench
  module Advisor
    # A model's pattern (the Ruby its declaration gives, Harness::Model) with
    # the user's names in it: their module's work, their items, the worker
    # count that won and a batch of about as much work as the model's own.
    module Pattern
      module_function

      # text: the pattern; module_name: whose `work`; seconds_per_item: what
      # the check measured, for the batch size.
      def render(text, module_name:, workers:, items:, seconds_per_item:)
        text.gsub("WORK(", "#{module_name}.work(").gsub("ITEMS", "items").gsub("WORKERS", workers.to_s)
          .gsub("BATCH", batch(items, workers, seconds_per_item).to_s)
      end

      # A comment after code follows it by two spaces (as standardrb writes
      # it); no pattern has "  # " inside a string.
      TRAILING_COMMENT = /  # /

      # code laid out in width columns as Ruby, never as prose: a trailing
      # comment that does not fit goes on its own line above its code, a
      # comment line is wrapped as comment lines, and a code line wider than
      # width stays whole (a terminal wraps it on the screen; a copy still
      # pastes one line).
      def lay_out(code, width)
        code.lines.map(&:chomp).flat_map do |line|
          indent = line[/\A */]
          statement, comment = line.split(TRAILING_COMMENT, 2)
          if line.length <= width
            [line]
          elsif line.lstrip.start_with?("#")
            comment_lines(indent, line.lstrip.delete_prefix("#").strip, width)
          elsif comment && !statement.strip.empty?
            [*comment_lines(indent, comment.strip, width), statement.rstrip]
          else
            [line]
          end
        end
      end

      def comment_lines(indent, text, width)
        Console.fill(text, width - indent.length - 2).map { |words| "#{indent}# #{words}" }
      end

      # About BatchPace::BATCH_SECONDS of work, and enough batches that every
      # worker takes several (a worker that finishes first then takes more).
      def batch(items, workers, seconds_per_item)
        pace = Harness::BatchPace
        by_time = seconds_per_item.to_f.positive? ? (pace::BATCH_SECONDS / seconds_per_item).floor : pace::BATCH
        by_share = items.to_i / ([workers, 1].max * pace::SHARE_AHEAD)
        [by_time, by_share].min.clamp(1, pace::BATCH)
      end
    end
  end
end
