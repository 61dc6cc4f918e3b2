# frozen_string_literal: true

require "test_helper"
require "ractorbench/advisor/pattern"

# The Ruby a recommendation prints for its winning model is run here, as a
# user would paste it, on every Ruby installed: it must return every item's
# result, in order, as serial does.
class PatternsTest < Minitest::Test
  PROGRAM = <<~RUBY
    Warning[:experimental] = false
    module Squares
      def self.work(item) = [item, item * item]
    end
    items = (1..503).to_a
    %s
    puts(results == items.map { |item| Squares.work(item) } ? "same" : "differ: \#{results.inspect[0, 200]}")
  RUBY

  def rubies
    [RbConfig.ruby, *Dir["/opt/rubies/*/bin/ruby"]]
  end

  def test_every_pattern_returns_what_serial_returns_on_every_ruby
    patterns = Ractorbench::Plan::Catalog.default.patterns
    assert_operator patterns.size, :>=, 6, "threads, fibers, two process and two ractor shapes declare one"
    rubies.each do |ruby|
      patterns.each do |model, text|
        code = Ractorbench::Advisor::Pattern.render(text, module_name: "Squares", workers: 3, items: 503, seconds_per_item: 1e-5)
        refute_match(/WORK|ITEMS|WORKERS|BATCH/, code, "#{model}: a placeholder left in")
        gem = code[/require "(\w+)"/, 1]
        next if gem && !loadable?(ruby, gem)

        out, err, status = Open3.capture3(env, ruby, "-e", format(PROGRAM, code), unsetenv_others: true)
        assert status.success?, "#{model} on #{ruby}: #{err}"
        assert_equal "same", out.strip, "#{model} on #{ruby}"
      end
    end
  end

  def test_batches_hold_about_two_ms_of_work_and_every_worker_gets_several
    pattern = Ractorbench::Advisor::Pattern
    assert_equal 40, pattern.batch(100_000, 2, 50e-6)
    assert_equal 128, pattern.batch(100_000, 2, 1e-7), "at most BatchPace::BATCH"
    assert_equal 12, pattern.batch(100, 2, 1e-7), "a quarter of each worker's share"
    assert_equal 1, pattern.batch(100, 2, 0.5), "coarse items one at a time"
  end

  private

  # As a user's shell has it: without this bundle's settings.
  def env = Ractorbench::Measure::ChildEnvironment.base

  # A gem the pattern needs, when this Ruby can load it (the bundle's Ruby
  # can; an installed Ruby may lack it: that Ruby is not tried with it).
  def loadable?(ruby, gem)
    _, _, status = Open3.capture3(env, ruby, "-e", "require #{gem.inspect}", unsetenv_others: true)
    status.success?
  end
end
