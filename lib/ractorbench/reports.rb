# frozen_string_literal: true

module Ractorbench
  # Output formats, one file each under reports/: each renders an Analysis
  # to a String. A new format is a new file that calls Reports.register.
  module Reports
    @formats = {}

    class << self
      def register(name, renderer)
        @formats[name] = renderer
      end

      def fetch(name)
        load_formats
        @formats.fetch(name) do
          raise UsageError, "unknown format #{name.inspect}; choose one of: #{names.join(", ")}"
        end
      end

      def names
        load_formats
        @formats.keys.sort
      end

      private

      def load_formats
        Dir[File.join(__dir__, "reports", "*.rb")].sort.each { |f| require f }
      end
    end
  end
end
