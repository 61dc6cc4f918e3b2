# frozen_string_literal: true

require_relative "test_helper"
require "ractorbench/store"

# The varying fields of a line the store folds without a template are
# checked a kind at a time (Columns::VaryingChecks), not a call a value. That
# is only a way in: a line must pass exactly when RunRecord.field passes each
# of its values, and come out as RunRecord keeps them.
class VaryingChecksTest < Minitest::Test
  Checks = Ractorbench::Store::Columns::VaryingChecks
  RunRecord = Ractorbench::Store::RunRecord

  # What JSON can put in a field, around every edge RunRecord draws.
  VALUES = [0, 0.0, -0.0, 1, 2, -1, 1e-9, 1e-10, 5e-10, 0.5, 3.25, 1e15 - 1, 1e15, 1e14, 365 * 24 * 3600.0,
    365 * 24 * 3600.0 - 1, 2**70, -(2**70), nil, true, false, "ok", "failed", "x\ty", "", [], ["a\e[31m", "b"], [1, 2], {}, {"a" => 1}].freeze
  KINDS = [:count, :seconds, :amount, :status, :boolean, :printed, :printed_lines, nil].freeze

  def expected(kinds, keys, values)
    kinds.each_with_index.map { |kind, i| kind ? RunRecord.field(keys[i], values[i], kind) : values[i] }
  rescue RunRecord::BadLine
    nil
  end

  def test_a_line_passes_exactly_when_each_value_does
    rng = Random.new(24)
    passed = 0
    3000.times do
      kinds = Array.new(rng.rand(1..8)) { KINDS.sample(random: rng) }
      keys = kinds.each_index.map { |i| "f#{i}" }
      # Mostly good numbers, so that whole lines pass too.
      values = kinds.map do |kind|
        next VALUES.sample(random: rng) if rng.rand < 0.2

        case kind
        when :count then rng.rand(1..1000)
        when :seconds, :amount then [rng.rand, rng.rand(100), 0.0].sample(random: rng)
        when :status then %w[ok failed].sample(random: rng)
        when :boolean then [true, false, nil].sample(random: rng)
        else VALUES.sample(random: rng)
        end
      end
      want = expected(kinds, keys, values.dup)
      got = Checks.new(kinds, keys).checked(values.dup)
      assert_equal want.inspect, got.inspect, "#{kinds.inspect} #{values.inspect}"
      passed += 1 if got
    end
    assert_operator passed, :>, 300, "some lines pass"
    assert_operator passed, :<, 2700, "some lines fail"
  end
end
