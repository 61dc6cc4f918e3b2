# frozen_string_literal: true

require_relative "text"
require_relative "html"
require_relative "json"

module Ractorbench
  module Reports
    # `history --format NAME`: each renders an Analysis::History::Result.
    HISTORY_FORMATS = {"text" => Reports::HistoryText, "html" => Reports::HistoryHtml, "json" => Reports::HistoryJson}.freeze
  end
end
