# frozen_string_literal: true

require "open3"
require "rbconfig"
require "shellwords"

# The README's examples are real output. Each example block follows a
# marker that says which command printed it:
#
#   <!-- output of: ractorbench compare a.jsonl b.jsonl; prompt -->
#   ```
#   ...
#   ```
#
# `rake readme` runs every command (with this checkout's exe/ractorbench,
# COLUMNS=100, no colour) and writes its output into the block; the README
# test runs them again and fails on any block that differs. Options after
# the command, separated by ";":
#   prompt              the block starts with "$ COMMAND"
#   lines A-B           only lines A to B (1-based), then "…" if more followed
#   grep REGEX          only the lines that match
#   except REGEX        without the lines that match (a timing that differs each run)
#   section /A/ /B/     from the first line matching A up to the next matching B
module ReadmeExamples
  ROOT = File.expand_path("..", __dir__)
  README = File.join(ROOT, "README.md")
  MARKER = /^<!-- output of: (?<spec>.+?) -->\n```(?<lang>\w*)\n(?<body>.*?)^```\n/m
  ENV_VARS = {"COLUMNS" => "100", "NO_COLOR" => "1"}.freeze

  Example = Struct.new(:spec, :body, :range, keyword_init: true) do
    def command = spec.split(";").first.strip

    def options = spec.split(";").drop(1).map(&:strip)
  end

  module_function

  def examples(text = File.read(README))
    text.to_enum(:scan, MARKER).map do
      m = Regexp.last_match
      Example.new(spec: m[:spec], body: m[:body], range: m.begin(:body)...m.end(:body))
    end
  end

  # What the block after the marker must hold.
  def expected(example)
    argv = Shellwords.split(example.command)
    raise ArgumentError, "README example does not run ractorbench: #{example.command}" unless argv.first == "ractorbench"

    out, err, = Open3.capture3(ENV_VARS, RbConfig.ruby, File.join(ROOT, "exe", "ractorbench"), *argv.drop(1), chdir: ROOT)
    lines = select((out + err).lines.map(&:chomp), example.options)
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
      when "prompt" then nil
      else raise ArgumentError, "unknown README example option #{option.inspect}"
      end
    end
    lines
  end

  # Rewrites README.md with every block regenerated; returns the number changed.
  def update!
    text = File.read(README)
    changed = 0
    examples(text).reverse_each do |example|
      fresh = expected(example)
      next if fresh == example.body

      text[example.range] = fresh
      changed += 1
    end
    File.write(README, text)
    changed
  end
end
