# frozen_string_literal: true

require_relative "../../../harness/ractorbench/harness/batch_pace"

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
