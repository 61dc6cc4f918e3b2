# frozen_string_literal: true

require_relative "test_helper"

# LibC finds a C function through Fiddle, or says there is none. Each case
# runs in a child Ruby that has not loaded Fiddle yet, as a report has not
# when it first calls one.
class LibCTest < Minitest::Test
  include CLIHelper

  def child(script) = ruby_script(script, "ractorbench/base/libc").to_a

  def test_a_function_libc_has_is_called
    skip "glibc's" unless RUBY_PLATFORM.match?(/linux(-gnu)?\z/)

    out, err, status = child(<<~RUBY)
      p Ractorbench::LibC.function("getpid", [], :int).call == Process.pid
      p Ractorbench::LibC.function("no_such_function_here", [:int], :int)
    RUBY
    assert status.success?, err
    assert_equal "true\nnil\n", out
  end

  # A Ctrl-C inside `require "fiddle"` stays a Ctrl-C: it once became a
  # NameError (the rescue named a Fiddle constant not yet defined) and the
  # report it stopped exited 1, not 130. The Interrupt is raised where the
  # signal landed, inside the require.
  def test_an_interrupt_while_fiddle_loads_stays_an_interrupt
    _, err, status = child(<<~RUBY)
      module Kernel
        alias_method :plain_require, :require
        def require(name) = name == "fiddle" ? raise(Interrupt) : plain_require(name)
      end
      begin
        Ractorbench::LibC.function("getpid", [], :int)
      rescue Interrupt
        exit 42
      end
    RUBY
    assert_equal 42, status.exitstatus, err
  end
end
