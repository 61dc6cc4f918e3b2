# frozen_string_literal: true

require "shellwords"
require_relative "../store/merge"
require_relative "../base/output_path"
require_relative "../base/atomic_file"
require_relative "../base/plural"
require_relative "../base/printable"

require_relative "../cli"
require_relative "../cli/parser"

module Ractorbench
  module Commands
    # `ractorbench merge A.jsonl B.jsonl ... -o all.jsonl`: the shards of a
    # plan, or one plan run on several machines, as one results file. Any
    # engine runs the shards (a CI matrix, a Kubernetes Indexed Job); this
    # brings their files together. Nothing is written unless all is well.
    class Merge
      EXIT_CODES = [[0, "merged"], [2, "bad input (files of different plans, a file given twice, a run twice on one " \
        "machine, a damaged or unfinished file, no -o): one line on stderr, nothing written"]].freeze

      def initialize(argv, out:, err:)
        @out = out
        @err = err
        @argv = argv.dup
        @parser = CLI::Parser.new("Usage: ractorbench merge A.jsonl B.jsonl [MORE.jsonl ...] -o ALL.jsonl", exit_codes: EXIT_CODES) do |o|
          o.on("-o", "--output FILE", "the merged results file (never replaces anything)") { |f| @output = f }
          o.on("--force", "with -o: replace an existing regular file (never a link or a device)") { @force = true }
          o.on("--allow-partial", "merge collections that have not run their whole plan (named in a warning)") { @partial = true }
        end
        @parser.parse!(argv)
        raise UsageError, "merge needs two or more results files, e.g. `ractorbench merge part*.jsonl -o all.jsonl`" if argv.size < 2
        raise UsageError, "merge writes a results file: add -o FILE, e.g. -o all.jsonl" unless @output

        @paths = argv
      end

      def call
        OutputPath.check_output!(@output, force: @force, inputs: @paths.select { |p| File.exist?(p) })
        merge = Store::Merge.new(@paths, allow_partial: @partial)
        AtomicFile.write(@output, merge.text(Printable.shell_line(["ractorbench", "merge"] + @argv)), force: @force)
        names = merge.machine_names.values
        note("ractorbench: merged #{Plural.count(merge.runs, "run")} of #{Plural.count(@paths.size, "file")} " \
          "(#{Plural.count(names.size, "machine")}: #{names.join(", ")}) into #{@output}")
        missing = merge.missing_shards
        note("ractorbench: warning: no file of shard #{missing.join(", ")} was given: its runs are missing") unless missing.empty?
        note("ractorbench: warning: unfinished, merged as they are: #{merge.unfinished.join(", ")}") unless merge.unfinished.empty?
        0
      end

      private

      def note(line) = @err.puts(@parser.terminal(@err).present(line))
    end

    CLI.register("merge", Merge, "join results files of one plan: its shards (--shard), or several machines")
  end
end
