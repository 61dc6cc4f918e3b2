# frozen_string_literal: true

require_relative "../plan/catalog"
require_relative "../plan/suite"
require_relative "../plan/ruby_bench"
require_relative "../../../harness/ractorbench/harness/subject"

require_relative "../cli"
require_relative "../cli/parser"
require_relative "../advisor/examples"
require_relative "../base/plural"
require_relative "../base/errors"
require_relative "../base/console"
require_relative "../base/printable"

module Ractorbench
  module Commands
    # `ractorbench list`: what can be run, one line each.
    class List
      def initialize(argv, out:, err:)
        @out = out
        @files = []
        @parser = CLI::Parser.new("Usage: ractorbench list [--load FILE] [--ruby-bench DIR]",
          exit_codes: [[0, "listed"], [2, "bad input (a --load FILE that is missing or fails to load, a folder that is not a " \
            "ruby-bench checkout): one line on stderr"]]) do |o|
          o.on("--load FILE", "also list the workloads and models FILE defines") { |f| @files << f }
          o.on("--ruby-bench DIR", "list only the Ractor-capable benchmarks of a ruby-bench checkout") { |d| @ruby_bench = Plan::RubyBench.at(d) }
        end
        @parser.parse!(argv)
        raise UsageError, "list takes no arguments, got #{argv.join(" ")}" unless argv.empty?
      end

      def call
        return ruby_bench_section if @ruby_bench

        catalog = Plan::Catalog.default.with(@files)
        section("Workloads", catalog.workloads.map { |w| [w.name, w.description] })
        section("Models", catalog.models.map { |m| [m.name, "#{m.description}#{" [#{m.family}]" if m.family}"] })
        section("Suites", Plan::Suite.all.map { |s| [s.name, "#{s.description} [#{Plural.count(s.reps, "rep")}]"] })
        section("Examples (ractorbench try --example NAME; files in #{Ractorbench::Advisor::Examples::DIR})",
          Ractorbench::Advisor::Examples.all.map { |name, file| [name, Ractorbench::Advisor::Examples.description(file)] })
        section("Subjects (-w ops-per-second -m MODEL --param subject=NAME)",
          Harness::Subject.load_all.values.map { |s| [s.name, "#{s.ran}  [#{s.model}; Concurrently: #{s.seed}]"] })
        0
      end

      private

      # What `run --ruby-bench DIR` would run, and what each needs.
      def ruby_bench_section
        checkout = @ruby_bench
        section("ruby-bench benchmarks in #{checkout.dir} (marked `ractor: true`; ractorbench run --ruby-bench " \
          "#{checkout.dir} -w NAME,...)", checkout.benchmarks.map { |b| [b.name, ruby_bench_line(b)] })
        0
      end

      def ruby_bench_line(benchmark)
        needs = []
        needs << "Ractor-only: its block is given W as its ractor count" if benchmark.ractor_only
        needs << (benchmark.script || "no script found")
        needs << "gems: #{benchmark.gemfile}" if benchmark.gemfile
        needs << "Git LFS pointer: #{benchmark.lfs_pointers.first}" unless benchmark.lfs_pointers.empty?
        Printable.terminal("#{benchmark.description}  [#{needs.join("; ")}]")
      end

      # A title, then each name with its description wrapped under the
      # descriptions' column (on a terminal; piped, a line each).
      def section(title, items)
        width = @parser.terminal(@out).known_width
        @out.puts(Console.wrap(title, width))
        names = items.map { |name, _| name.size }.max.to_i
        items.sort.each { |name, text| @out.puts(Console.hang("  #{name.ljust(names)}  ", text, width)) }
        @out.puts
      end
    end

    CLI.register("list", List, "the workloads, models and suites, one line each")
  end
end
