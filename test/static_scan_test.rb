# frozen_string_literal: true

require "test_helper"
require "ractorbench/advisor/static_scan"

# The static pass behind try's check reads the user's file and the files it
# requires for candidates; the check in a ractor confirms them. What it
# must not take for a module's state: an object's own instance variables
# and the project's own classes called as if they were a library's.
class StaticScanTest < Minitest::Test
  include TempDir

  def candidates(text, helper: nil)
    File.write(File.join(@dir, "helper.rb"), helper) if helper
    path = File.join(@dir, "work.rb")
    File.write(path, text)
    Ractorbench::Advisor::StaticScan.new(path).candidates.map { |c| [c.kind, c.name, c.owner, c.uses.map(&:line)] }
  end

  def test_module_state_but_not_an_objects_own
    found = candidates(<<~RUBY)
      class Point
        @made = 0
        def initialize(x) = @x = x
        def twice = @x * 2
        def self.work(item)
          @made += 1
          Point.new(item).twice
        end
      end

      module Memo
        module_function

        def lookup(key) = (@memo ||= {})[key]
      end
    RUBY
    assert_equal [["ivar", "@made", "Point", [6]], ["ivar", "@memo", "Memo", [14]]], found
  end

  def test_globals_class_variables_constants_and_loading_in_methods
    found = candidates(<<~RUBY)
      require "objspace"

      module Work
        TABLE = {}
        LIMIT = 10
        @@hits = 0

        def self.work(item)
          require "set"
          require("json")
          @@hits += 1
          $stdout.sync
          TABLE[item] ||= ObjectSpace.memsize_of("x") + $scale + LIMIT
        end
      end
    RUBY
    assert_includes found, ["constant", "TABLE", "Work", [13]]
    assert_includes found, ["cvar", "@@hits", "Work", [11]]
    assert_includes found, ["global", "$scale", nil, [13]]
    assert_includes found, ["c_method", "ObjectSpace.memsize_of", nil, [13]]
    assert_equal [['require "set"', [9]], ['require "json"', [10]]], found.select { |k, *| k == "lazy_load" }.map { |_, n, _, l| [n, l] }
    refute(found.any? { |_, name| name == "LIMIT" }, "an Integer constant is shareable as written")
    refute(found.any? { |_, name| name == "$stdout" }, "every ractor has its own $stdout")
  end

  def test_a_helper_required_relative_is_read_too
    found = candidates(<<~RUBY, helper: "module Helper\n  STEPS = [1, 2]\n  def self.step(i) = STEPS[i]\nend\n")
      require_relative "helper"

      module Work
        def self.work(item) = Helper.step(item)
      end
    RUBY
    assert_equal [["constant", "STEPS", "Helper", [3]]], found
  end
end
