# frozen_string_literal: true

require_relative "test_helper"
require "ractorbench/plan/run_spec"
require "ractorbench/plan/shard"
require "ractorbench/store/run_table"

# A configuration's identity has one owner, Plan::Configuration: it alone
# builds the `workload/model/wN/mM/params/ruby` label and a run's id, and
# the store's fast path reads a line's label by its mark; the panel every
# verdict compares is one value (Plan::Panel) with one order.
class ConfigurationIdentityTest < Minitest::Test
  LIB = File.join(ROOT, "lib")
  Configuration = Ractorbench::Plan::Configuration
  RunSpec = Ractorbench::Plan::RunSpec
  Panel = Ractorbench::Plan::Panel

  # Every kind of run: without parameters, with several, with an internal
  # one (try's), on Rubies named for a variant (YJIT, M:N), a try sweep.
  SPECS = [
    {"workload" => "prime", "model" => "serial", "workers" => 1, "messages" => 1000, "params" => {}, "ruby" => "ruby", "rep" => 1},
    {"workload" => "fib", "model" => "threads", "workers" => 2, "messages" => 4, "params" => {"n" => 30, "a" => "x"}, "ruby" => "3.4.0", "rep" => 12},
    {"workload" => "tarai", "model" => "ractors-split", "workers" => 8, "messages" => 1, "params" => {}, "ruby" => "ruby-4.0.0+yjit", "rep" => 3},
    {"workload" => "ring", "model" => "fibers", "workers" => 1, "messages" => 1000, "params" => {"nodes" => 10_000}, "ruby" => "4.0+mn", "rep" => 2},
    {"workload" => "try", "model" => "processes", "workers" => 4, "messages" => 250,
     "params" => {"file" => "/tmp/w.rb", "module" => "W", "seconds_per_item" => 0.001}, "ruby" => "ruby", "rep" => 6}
  ].freeze

  def test_a_label_and_an_id_round_trip_through_the_configuration
    SPECS.each do |h|
      spec = RunSpec.from_h(h)
      config = spec.configuration
      label = config.label
      params = h["params"].sort.map { |k, v| "#{k}=#{v}" }.join(",")
      assert_equal [h["workload"], h["model"], "w#{h["workers"]}", "m#{h["messages"]}", *(params unless params.empty?), h["ruby"]].join("/"), label
      assert_equal "#{label}/rep#{h["rep"]}", spec.id
      # A record read back names the same configuration.
      assert_equal label, Configuration.of(h.merge("id" => spec.id)).label
      # A shard's fingerprint: the id, Ruby aside, every field in place.
      assert_equal "#{h["workload"]}/#{h["model"]}/w#{h["workers"]}/m#{h["messages"]}/#{params}/rep#{h["rep"]}",
        Ractorbench::Plan::Shard.rubyless_key(h)
      assert_equal Ractorbench::Plan::Shard.rubyless_key(h), Ractorbench::Plan::Shard.rubyless_key(spec)
    end
  end

  def test_internal_parameters_are_in_the_label_never_in_a_title_or_a_shown_label
    config = RunSpec.from_h(SPECS.last).configuration
    assert_includes config.label, "seconds_per_item=0.001"
    refute_includes config.title, "seconds_per_item"
    shown = Configuration.shown_label(workload: "try", model: "processes", workers: 4, messages: 250, params: config.params_label, ruby: "ruby")
    assert_equal "try/processes/w4/m250/file=/tmp/w.rb,module=W/ruby", shown
    assert_equal "try/w4/m250/file=/tmp/w.rb,module=W/ruby", config.panel.label
  end

  # The panel: the same value from a configuration, a record and a row,
  # whichever model; models of one panel share it, other sizes do not.
  def test_the_panel_is_one_value_with_one_order
    a, b = %w[serial threads].map { |m| RunSpec.from_h(SPECS[1].merge("model" => m)).configuration }
    assert_equal a.panel, b.panel
    assert_equal a.panel.hash, b.panel.hash
    refute_equal a.panel, RunSpec.from_h(SPECS[1].merge("workers" => 4)).configuration.panel
    assert_equal Panel.new(workload: "fib", params: "a=x,n=30", workers: 2, messages: 4, ruby: "3.4.0"), a.panel
    panels = [Panel.new(workload: "fib", params: nil, workers: 10, messages: 1, ruby: "r"),
      Panel.new(workload: "fib", params: nil, workers: 2, messages: 1, ruby: "r"),
      Panel.new(workload: "alloc", params: "n=1", workers: 2, messages: 1, ruby: "r")]
    assert_equal [["alloc", 2], ["fib", 2], ["fib", 10]], panels.sort_by(&:sort_key).map { |p| [p.workload, p.workers] }
    assert_nil a.panel.without_ruby.ruby
  end

  def test_a_report_row_has_its_configurations_label_and_panel
    path = File.join(FIXTURES, "results", "basic_benchmarking.jsonl")
    analysis = Ractorbench::Analysis.new(Ractorbench::Store.read(path))
    refute_empty analysis.groups
    analysis.groups.each do |group|
      row = analysis.row(group)
      assert_equal group.configuration.label, row.label
      assert_equal group.configuration.panel, row.panel
    end
  end

  # Nothing but the configuration builds a label's or an id's text.
  def test_no_other_file_builds_the_label
    owner = File.join(LIB, "ractorbench", "plan", "configuration.rb")
    builders = Dir[File.join(LIB, "**", "*.{rb,erb}")].reject { |f| f == owner }.flat_map do |path|
      File.foreach(path).with_index(1).filter_map do |line, n|
        next if line.lstrip.start_with?("#")

        "#{path.delete_prefix("#{LIB}/")}:#{n}: #{line.strip}" if line.match?(/\bw#\{|rep#\{|"\/rep"/)
      end
    end
    assert_empty builders, "build labels and ids with Plan::Configuration (label_of, shown_label, run_id)"
  end

  # Nor rebuilds a panel as a tuple, in either of the orders it had.
  def test_no_other_file_rebuilds_the_panel_as_a_tuple
    tuple = /values_at\("workload", "params", "workers", "messages", "ruby"\)|\[\w+\["workload"\], \w+\["params"\], \w+\["workers"\]|comparison_key|\[\w+\.workload, \w+\.params_label(?:\.to_s)?, \w+\.workers/
    rebuilt = Dir[File.join(LIB, "**", "*.rb")].flat_map do |path|
      File.foreach(path).with_index(1).filter_map { |line, n| "#{path.delete_prefix("#{LIB}/")}:#{n}" if line.match?(tuple) }
    end
    assert_empty rebuilt, "use Plan::Panel (configuration.panel, row.panel)"
  end
end
