# frozen_string_literal: true

require "json"
require_relative "../cli"
require_relative "../cli/parser"
require_relative "../base/errors"
require_relative "../base/printable"
require_relative "../base/console"
require_relative "../reports/parts/columns"
require_relative "../rubies/child_programs"
require_relative "../rubies/discovery"
require_relative "../rubies/target"

module Ractorbench
  module Commands
    # `ractorbench rubies`: every Ruby found on PATH and where rbenv, asdf,
    # chruby, mise and rvm keep them, with what each can run: the names
    # `--ruby` and `--rubies` take.
    class RubyList
      FORMATS = %w[text json].freeze

      # A Ruby found, as the list shows it: a row of the table, an object of
      # the JSON (found_by: the place it was found; ractor: "Port",
      # "yield/take" or "none"; has, lacks: for an engine with programs of
      # its own; problem: why its probe failed, and then nothing else).
      Listed = Struct.new(:name, :found_by, :path, :version, :engine, :description, :yjit, :zjit, :ractor, :fork,
        :mn_threads, :has, :lacks, :problem, keyword_init: true) do
        def as_json
          shown = if problem
            %i[name found_by path problem]
          else
            members - %i[problem] - (has ? [] : %i[has lacks])
          end
          to_h.slice(*shown).transform_keys(&:to_s)
        end
      end

      def initialize(argv, out:, err:)
        @out = out
        @format = "text"
        @parser = CLI::Parser.new("Usage: ractorbench rubies [--format text|json]",
          exit_codes: [[0, "listed (also when none was found)"], [2, "bad input: one line on stderr"]]) do |o|
          o.on("--format FORMAT", FORMATS, "text (a table, default) or json") { |f| @format = f }
        end
        @parser.parse!(argv)
        raise UsageError, "rubies takes no arguments, got #{argv.join(" ")}" unless argv.empty?
      end

      def call
        found = Ractorbench::Rubies::Discovery.new.call
        rows = found.map { |f| row(f) }
        @out.puts((@format == "json") ? JSON.pretty_generate(rows.map(&:as_json)) : table(rows))
        0
      end

      private

      # What the probe said, plus whether M:N threads took effect when asked
      # for (a second probe with RUBY_MN_THREADS=1).
      def row(found)
        return Listed.new(found_by: found.source, path: found.path, problem: found.problem) unless found.ok?

        f = found.features
        Listed.new(name: found.name, found_by: found.source, path: found.path, version: found.version, engine: found.engine,
          description: found.probe.description, yjit: f.yjit ? true : false, zjit: f.zjit ? true : false,
          ractor: ractor_api(f), fork: f.fork ? true : false, mn_threads: mn_threads(found), **own_programs(found))
      end

      # An engine with programs of its own (mruby) lists what its probe
      # found, as it was built with some gems and not others.
      def own_programs(found)
        names = Ractorbench::Rubies::ChildPrograms.for(found.info).features
        return {} if names.empty?

        has, lacks = names.keys.partition { |key| found.features.has?(key) }
        {has: has.map { |k| names[k] }, lacks: lacks.map { |k| names[k] }}
      end

      def ractor_api(features)
        return "none" unless features.ractor

        features.ractor_port ? "Port" : "yield/take"
      end

      def mn_threads(found)
        return false unless found.engine == "ruby"

        probed = Ractorbench::Rubies::Target.new(name: found.name, argv: [found.path], env: {"RUBY_MN_THREADS" => "1"}).probe!
        probed.probe.features.mn_check("threads").active
      rescue UsageError
        nil
      end

      def own_programs_lines(rows)
        rows.select(&:has).map do |r|
          Printable.name("#{r.name} has #{r.has.join(", ")}; lacks #{r.lacks.join(", ")}: " \
            "#{Printable.command("ractorbench", "run", "--suite", "concurrently", "--ruby", r.engine)} measures what these allow, the rest are \"not supported\" rows.")
        end
      end

      HEADINGS = %w[name version engine YJIT ZJIT Ractor M:N fork found path].freeze
      LEGEND = "--ruby NAME or a version prefix (--ruby 4.0) picks one; --rubies all (or a list, 3.4,4.0) several. " \
        "Ractor: Port (Ruby 4.0's API) or yield/take (3.x); M:N: RUBY_MN_THREADS=1 takes effect."

      # A line a Ruby, laid out for the terminal (the path under its row when
      # the line would not fit); piped, for 100 columns, the notes unwrapped.
      def table(rows)
        return "No Ruby found on PATH or in the folders of rbenv, asdf, chruby, mise or rvm." if rows.empty?

        table = Reports::Parts::Columns.new(HEADINGS, spill: true)
        rows.each do |r|
          next table.group("-", [["-"] * 7 + [r.found_by, "#{r.path}: #{r.problem}"].map { |c| Printable.name(c) }]) if r.problem

          table.group(Printable.name(r.name), [[r.version, r.engine, yes(r.yjit), yes(r.zjit), r.ractor,
            yes(r.mn_threads), yes(r.fork), r.found_by, r.path].map { |cell| Printable.name(cell.to_s) }])
        end
        terminal = @parser.terminal(@out)
        notes = [*own_programs_lines(rows), LEGEND].map { |line| Console.wrap(line, terminal.known_width) }
        [table.to_s(terminal.width), *notes].join("\n")
      end

      def yes(value)
        return "?" if value.nil?

        value ? "yes" : "no"
      end
    end

    CLI.register("rubies", RubyList, "every Ruby found (PATH, rbenv, asdf, chruby, mise, rvm) and what it can run")
  end
end
