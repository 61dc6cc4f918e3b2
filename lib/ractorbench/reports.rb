# frozen_string_literal: true

require_relative "base/errors"

module Ractorbench
  # Output formats, one file each: reports/*.rb render an Analysis (the
  # `report` and `run` commands), reports/compare/*.rb render a Comparison
  # (`compare`), reports/sides/*.rb an Analysis::SideBySide (`report --by`).
  # A new format is a new file that calls Reports.register with its traits;
  # the commands read the traits, never a format's name, so adding one
  # touches nothing else. Pieces several formats share live in reports/parts/.
  module Reports
    KINDS = {analysis: "reports", comparison: "reports/compare", sides: "reports/sides"}.freeze
    FOR = {comparison: " for compare", sides: " for report --by"}.freeze

    # A format and what the commands need to know of it:
    # - extension: of the file it writes ("md", "html");
    # - terminal: written for a person at a terminal (coloured there: its
    #   WARNING and FAILED lines highlighted);
    # - width: lays itself out for the terminal's width (`render(x, width:)`);
    # - wrap: its prose wrapped at the terminal's width when shown there;
    # - colour: colours its own cells (`render(x, colour:)`);
    # - browser: a page for a browser (refused on a terminal without -o) that
    #   escapes every name itself, so the terminal escaping is not applied;
    # - closing: what `run`, the tour and `try` end with: `report` of their
    #   file shows that ending again;
    # - try: opens a file `try` wrote with what try concluded
    #   (`render(x, try_outcome:)`);
    # - default: the format used when none is asked for.
    Format = Struct.new(:name, :renderer, :extension, :terminal, :width, :wrap, :colour, :browser, :closing, :try, :default,
      keyword_init: true) do
      def render(...) = renderer.render(...)

      # text as shown on a terminal (a Console): a terminal format's coloured,
      # its prose wrapped if it asks; any other's as it is.
      def shown(text, console)
        return text unless terminal

        wrap ? console.present(text) : console.paint(text)
      end
    end

    @formats = Hash.new { |h, k| h[k] = {} }

    class << self
      def register(name, renderer, of: :analysis, extension: "txt", **traits)
        @formats[of][name] = Format.new(name: name, renderer: renderer, extension: extension, **traits)
      end

      # The Format named name (traits and renderer); an unknown name is one
      # line naming the ones there are.
      def format(name, of: :analysis)
        load_formats
        @formats[of].fetch(name) do
          raise UsageError, "unknown format #{name.inspect}#{FOR[of]}; choose one of: #{names(of: of).join(", ")}"
        end
      end

      def fetch(name, of: :analysis) = format(name, of: of).renderer

      def names(of: :analysis)
        load_formats
        @formats[of].keys.sort
      end

      # The format used when none is asked for.
      def default(of: :analysis)
        load_formats
        @formats[of].each_value.find(&:default)
      end

      private

      def load_formats
        KINDS.each_value { |dir| Dir[File.join(__dir__, dir, "*.rb")].sort.each { |f| require f } }
      end
    end
  end
end
