# frozen_string_literal: true

require_relative "test_helper"

# Children launched side by side (`ractorbench rubies` probes every Ruby at
# once): one run's tree once took another thread's child, spawned a moment
# before, for its orphan, killed and reaped it, and that thread's wait
# failed (ECHILD; seen once under CI on 4.0.0). The script makes the moment
# long (a pause after each spawn), in a Ruby of its own.
class ConcurrentLaunchTest < Minitest::Test
  include CLIHelper

  SCRIPT = <<~RUBY
    require "ractorbench"
    module Process
      class << self
        alias_method :plain_spawn, :spawn
        def spawn(*args, **options) = plain_spawn(*args, **options).tap { sleep 0.05 }
      end
    end
    failed = Queue.new
    4.times.map do
      Thread.new do
        3.times { Ractorbench::Rubies::Target.new(name: "host", argv: [#{RbConfig.ruby.inspect}]).probe! }
      rescue StandardError => e
        failed << e
      end
    end.each(&:join)
    puts failed.size
  RUBY

  def test_children_launched_side_by_side_are_each_their_own_runs
    out, err, status = ruby_script(SCRIPT).to_a
    assert status.success?, err
    assert_equal "0", out.strip, "probes that failed: #{err}"
  end
end
