# frozen_string_literal: true

require_relative "test_helper"
require "ractorbench/reports/parts/box_table"

# The boxed tables of the text reports (report's statistics, report --by,
# the ops tables): the layout their golden files show, here for what those
# files do not have: a title wider than the columns, a cell spanning
# columns wider than they are, names drawn two columns wide.
class BoxTableTest < Minitest::Test
  BoxTable = Ractorbench::Reports::Parts::BoxTable

  def drawn(title, headings, rows, right:)
    BoxTable.new(title: title, headings: headings, rows: rows, right: right).to_s
  end

  def test_a_title_wider_than_the_columns_widens_them_evenly_and_rows_align_right_where_asked
    text = drawn("Speedup over serial on each ruby (messages-only time)", ["workload", "model", "ruby31"],
      [["fib", "serial", "3.28ms ±5% n=3"], ["", "ractors", "0.47× ±6% n=3"]], right: [2])
    assert_equal <<~TABLE.chomp, text
      +-------------------------------------------------------+
      | Speedup over serial on each ruby (messages-only time) |
      +------------------+------------------+-----------------+
      | workload         | model            | ruby31          |
      +------------------+------------------+-----------------+
      | fib              | serial           |  3.28ms ±5% n=3 |
      |                  | ractors          |   0.47× ±6% n=3 |
      +------------------+------------------+-----------------+
    TABLE
  end

  def test_a_spanning_cell_wider_than_its_columns_widens_them_and_borders_cross_only_where_cells_end
    text = drawn("Costs", ["workload", "model", "n", "s", "faults"],
      [["spawn", "serial", BoxTable::Span.new("not measured: no serial variant", 3)], ["spawn", "threads", 3, "0.0005", "1,204"]],
      right: [2, 3, 4])
    assert_equal <<~TABLE.chomp, text
      +------------------------------------------------------+
      |                        Costs                         |
      +----------+---------+-----------+----------+----------+
      | workload | model   | n         | s        | faults   |
      +----------+---------+-----------+----------+----------+
      | spawn    | serial  | not measured: no serial variant |
      | spawn    | threads |         3 |   0.0005 |    1,204 |
      +----------+---------+-----------+----------+----------+
    TABLE
  end

  def test_wide_characters_take_two_columns
    assert_equal <<~TABLE.chomp, drawn("名前", ["名前", "n"], [["ラクター", 12]], right: [1])
      +---------------+
      |     名前      |
      +----------+----+
      | 名前     | n  |
      +----------+----+
      | ラクター | 12 |
      +----------+----+
    TABLE
  end
end
