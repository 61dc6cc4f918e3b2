# frozen_string_literal: true

require_relative "test_helper"
require "tmpdir"
require "fileutils"

# The driver's stages are layers: every require points down this order, or
# stays in its own layer, and no two stages require each other. A file's
# stage is the first part of its path under lib/ractorbench/ (analysis.rb
# and analysis/ are one stage); harness/ runs in the child and sits below
# every stage; lib/ractorbench.rb, the gem's entry, above them all.
class LayersTest < Minitest::Test
  # Bottom to top. A stage in no layer is a failure too: a new stage
  # declares where it sits.
  LAYERS = [
    %w[harness],
    # base/: what every stage may use and that uses nothing of ours: errors,
    # words, names made printable, numbers checked, paths, the version, the
    # terminal's width and colour, C functions.
    %w[base],
    %w[forked_parts stats], # work in forked parts; the statistics
    %w[plan],      # what to run: configurations, run specs, suites, sizes
    %w[measure],   # one child: launch, limits, kill, outcome, interference
    %w[rubies],    # the Rubies under test, probed by a child (measure)
    %w[store],     # results files: header, run lines, marks, merge
    %w[analysis],  # figures, rows, winners, verdicts on disturbed runs
    %w[collector], # a plan's runs measured and stored, digests checked
    %w[profile],   # the profiled runs after a collection
    %w[reports],   # formats
    %w[advisor],   # try: the check, diagnoses, recommendation, its screen
    %w[cli],       # the commands' registry and their option parser
    %w[collection],
    %w[commands],
    %w[api],
    %w[ractorbench]
  ].freeze

  # Reads every require of a tree's lib/ and harness/ and names each that
  # points up the layers, or into a stage that requires it back.
  class Check
    REQUIRE = /^\s*require(_relative)?\s*\(?\s*["']([^"']+)["']/

    Edge = Struct.new(:file, :line, :from, :to)

    def initialize(root, layers)
      @root = root
      @layer = layers.each_with_index.flat_map { |stages, i| stages.map { |s| [s, i] } }.to_h
    end

    def problems
      edges = self.edges
      pairs = edges.map { |e| [e.from, e.to] }.uniq
      edges.filter_map do |e|
        where = "#{e.file}:#{e.line}"
        if !@layer.key?(e.from) || !@layer.key?(e.to)
          "#{where}: stage #{[e.from, e.to].reject { |s| @layer.key?(s) }.join(", ")} is in no layer: add it to LayersTest::LAYERS"
        elsif @layer[e.to] > @layer[e.from]
          "#{where}: #{e.from} requires #{e.to}, a layer above it"
        elsif pairs.include?([e.to, e.from])
          "#{where}: #{e.from} requires #{e.to}, which requires #{e.from}"
        end
      end
    end

    # Requires between two stages, with the file and line of each.
    def edges
      Dir[File.join(@root, "{lib,harness}", "**", "*.rb")].sort.flat_map do |file|
        File.foreach(file).with_index(1).filter_map do |text, line|
          next unless (m = text.match(REQUIRE))

          target = m[1] ? File.expand_path("#{m[2]}.rb", File.dirname(file)) : File.join(@root, "lib", "#{m[2]}.rb")
          next unless m[1] || m[2].start_with?("ractorbench/")

          from, to = stage(file), stage(target)
          Edge.new(file.delete_prefix("#{@root}/"), line, from, to) if to && from != to
        end
      end
    end

    # nil: outside the tree (the standard library, a gem).
    def stage(path)
      relative = path.delete_prefix("#{@root}/")
      return "harness" if relative.start_with?("harness/")
      return "ractorbench" if relative == "lib/ractorbench.rb"
      return nil unless relative.start_with?("lib/ractorbench/")

      relative.delete_prefix("lib/ractorbench/").split("/").first.delete_suffix(".rb")
    end
  end

  def test_every_require_points_down_the_layers
    check = Check.new(ROOT, LAYERS)
    refute_empty check.edges, "the requires were read"
    problems = check.problems
    assert_empty problems, problems.join("\n")
  end

  # base/ is the floor every stage stands on: its files require one another
  # and the standard library, nothing else of ours (not even the child's).
  def test_the_base_requires_nothing_of_ours
    from_base = Check.new(ROOT, LAYERS).edges.select { |e| e.from == "base" }.map { |e| "#{e.file}:#{e.line} requires #{e.to}" }
    assert_empty from_base, from_base.join("\n")
  end

  # Every file and folder of lib/ractorbench/ is a stage with its place in
  # the order, even one nothing requires yet: LAYERS is the one list of stages.
  def test_every_stage_has_a_layer
    stages = Dir[File.join(ROOT, "lib", "ractorbench", "*")].map { |f| File.basename(f).delete_suffix(".rb") }.uniq
    assert_empty stages - LAYERS.flatten, "add them to LayersTest::LAYERS"
  end

  # The check can fail: a planted tree whose stages require each other,
  # one of them up the order.
  def test_a_require_up_the_layers_and_two_stages_requiring_each_other_are_named
    Dir.mktmpdir do |root|
      plant(root, "lib/ractorbench/low/a.rb", "../high/b")
      plant(root, "lib/ractorbench/high/b.rb", "../low/a")
      plant(root, "lib/ractorbench/high/c.rb", "../other")
      plant(root, "lib/ractorbench/other.rb", "high/c")
      plant(root, "harness/child.rb", "../lib/ractorbench/low/a")
      problems = Check.new(root, [%w[harness], %w[low], %w[high other]]).problems
      assert_includes problems, "lib/ractorbench/low/a.rb:3: low requires high, a layer above it"
      assert_includes problems, "lib/ractorbench/high/b.rb:3: high requires low, which requires high"
      assert_includes problems, "lib/ractorbench/high/c.rb:3: high requires other, which requires high"
      assert_includes problems, "lib/ractorbench/other.rb:3: other requires high, which requires other"
      assert_includes problems, "harness/child.rb:3: harness requires low, a layer above it"
      assert_equal 5, problems.size, problems.join("\n")

      plant(root, "lib/ractorbench/new.rb", "low/a")
      assert_includes Check.new(root, [%w[harness], %w[low], %w[high other]]).problems,
        "lib/ractorbench/new.rb:3: stage new is in no layer: add it to LayersTest::LAYERS"
    end
  end

  private

  def plant(root, path, requires)
    file = File.join(root, path)
    FileUtils.mkdir_p(File.dirname(file))
    File.write(file, "# frozen_string_literal: true\n\nrequire_relative \"#{requires}\"\n")
  end
end
