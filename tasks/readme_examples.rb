# frozen_string_literal: true

require "open3"
require "rbconfig"
require "shellwords"

# The examples of the README and of docs/*.md are real output. Each example
# block follows a marker that says which command printed it:
#
#   <!-- output of: ractorbench compare a.jsonl b.jsonl; prompt -->
#   ```
#   ...
#   ```
#
# `rake readme` runs every command (with this checkout's exe/ractorbench, or
# this Ruby for `ruby ...`, from the checkout's root, COLUMNS=100, no colour)
# and writes its output, less blank lines at its end, into the block; the
# README test runs them again and fails on any block that differs. Options after the command, separated by ";":
#   prompt              the block starts with "$ COMMAND"
#   lines A-B           only lines A to B (1-based), then "…" if more followed
#   grep REGEX          only the lines that match
#   except REGEX        without the lines that match (a timing that differs each run)
#   section /A/ /B/     from the first line matching A up to the next matching B
#   from /A/            from the first line matching A to the end
module ReadmeExamples
  ROOT = File.expand_path("..", __dir__)
  README = File.join(ROOT, "README.md")
  MARKER = /^<!-- output of: (?<spec>.+?) -->\n```(?<lang>\w*)\n(?<body>.*?)^```\n/m
  ENV_VARS = {"COLUMNS" => "100", "NO_COLOR" => "1"}.freeze
  # The README's first run and try example are timings, so they are read from
  # results files recorded once (examples/results/NAME.jsonl, shipped in the
  # gem) by these commands. `rake readme:record` records them again (after
  # the tour or try changes what it runs; on a quiet machine), then `rake readme`.
  RECORDINGS = {
    "tour" => %w[tour],
    "try_slow_service" => %w[try examples/slow_service.rb]
  }.freeze

  Example = Struct.new(:file, :spec, :body, :range, keyword_init: true) do
    def command = spec.split(";").first.strip

    def options = spec.split(";").drop(1).map(&:strip)

    # Where it is, for a person: "docs/reports.md: ractorbench report ...".
    def to_s = "#{file.delete_prefix("#{ROOT}/")}: #{command}"
  end

  module_function

  # The README and the reference it points to.
  def files = [README, *Dir[File.join(ROOT, "docs", "*.md")].sort]

  def examples(paths = files)
    paths.flat_map { |file| examples_in(File.read(file), file) }
  end

  def examples_in(text, file)
    text.to_enum(:scan, MARKER).map do
      m = Regexp.last_match
      Example.new(file: file, spec: m[:spec], body: m[:body], range: m.begin(:body)...m.end(:body))
    end
  end

  # What the block after the marker must hold.
  def expected(example)
    program, *args = Shellwords.split(example.command)
    command = case program
    when "ractorbench" then [RbConfig.ruby, File.join(ROOT, "exe", "ractorbench")]
    when "ruby" then [RbConfig.ruby]
    else raise ArgumentError, "#{example}: an example runs ractorbench or ruby"
    end
    out, err, = Open3.capture3(ENV_VARS, *command, *args, chdir: ROOT)
    lines = select((out + err).lines.map(&:chomp), example.options)
    lines.pop while lines.last&.strip&.empty?
    lines.unshift("$ #{example.command}") if example.options.include?("prompt")
    lines.map { |l| "#{l}\n" }.join
  end

  def select(lines, options)
    options.each do |option|
      case option
      when /\Alines (\d+)-(\d+)\z/
        from, to = $1.to_i, $2.to_i
        more = lines.size > to
        lines = lines[(from - 1)...to]
        lines << "…" if more
      when /\Agrep (.+)\z/
        pattern = Regexp.new($1)
        lines = lines.grep(pattern)
      when /\Aexcept (.+)\z/
        pattern = Regexp.new($1)
        lines = lines.grep_v(pattern)
      when %r{\Asection /(.+)/ /(.+)/\z}
        start, stop = Regexp.new($1), Regexp.new($2)
        lines = lines.drop_while { |l| !l.match?(start) }
        lines = [lines.first, *lines.drop(1).take_while { |l| !l.match?(stop) }].compact
      when %r{\Afrom /(.+)/\z}
        start = Regexp.new($1)
        lines = lines.drop_while { |l| !l.match?(start) }
      when "prompt" then nil
      else raise ArgumentError, "unknown README example option #{option.inspect}"
      end
    end
    lines
  end

  # Rewrites every file with its blocks regenerated; returns the number changed.
  def update!
    files.sum do |file|
      text = File.read(file)
      # From the last block up, so that the earlier ones' ranges still hold.
      changed = examples_in(text, file).reverse.count do |example|
        fresh = expected(example)
        next false if fresh == example.body

        text[example.range] = fresh
        true
      end
      File.write(file, text) unless changed.zero?
      changed
    end
  end
end
