# frozen_string_literal: true

require_relative "test_helper"
require "cgi"
require "ractorbench/reports/parts/document_builder"
require "ractorbench/reports/parts/message_tables"
require "ractorbench/reports/parts/memory_tables"

# Every human format writes the whole report document: each section of the
# document of a real results file shows in text, Markdown and HTML, so no
# format can lose a section again (HTML had lost the notes, the gaps to the
# ideal and the VM notes the others show).
class ReportDocumentTest < Minitest::Test
  include CLIHelper

  FILES = (Dir[File.join(FIXTURES, "results", "*.jsonl")] + Dir[File.expand_path("../examples/results/*.jsonl", __dir__)]).sort
  HUMAN = %w[text markdown html].freeze

  # What any writing of a section must say: phrases from its content. A new
  # section id fails test_the_document_has_the_sections_this_test_checks
  # until it has its phrases here.
  PHRASES = {
    figures: ->(c) { c.rows.flat_map { |r| [r["model"], *(c.speedup(r).to_s if r["speedup"])] } },
    ops: ->(tables) { tables.map { |table, _| table.title } },
    messages: ->(rows) { rows.flat_map { |r| [Ractorbench::Reports::Parts::MessageTables.panel(r), *(Ractorbench::Reports::Parts::MessageTables.rate(r) if r["rate"])] } },
    memory: ->(rows) { rows.flat_map { |r| [Ractorbench::Reports::Parts::MemoryTables.panel(r), *(Ractorbench::Reports::Parts::MemoryTables.megabytes(r["kept_kb"]) if r["kept_kb"])] } },
    answer: ->(c) { c.winners.flat_map { |e| [e.winner["model"], *(Ractorbench::Reports::Parts::FigureCells.ratio(e.winner["speedup"]) if e.winner["speedup"])] } },
    verdict: ->(lines) { [lines.first, *lines.grep(/\ADigests/)] },
    notes: ->(lines) { lines },
    gaps: ->(lines) { lines },
    vm: ->(lines) { lines },
    profiles: ->(findings) { Ractorbench::Reports::Parts::ProfileTables.tables(findings).map(&:title) },
    cautions: ->(c) { [c.note, *c.warnings.map(&:message)].compact }
  }.freeze

  def document(file) = Ractorbench::Reports::Parts::DocumentBuilder.for(Ractorbench::Analysis.new(Ractorbench::Store.read(file)))

  # The words a reader sees: tags dropped and entities read on a page,
  # Markdown's backslash escapes dropped, every run of spaces one space.
  def seen(text, format)
    text = CGI.unescapeHTML(text.gsub(/<[^>]*>/, " ")) if format == "html"
    text = text.gsub(/\\(?=[|<&])/, "") if format == "markdown"
    squeeze(text)
  end

  def squeeze(text) = text.to_s.gsub(/\s+/, " ").strip

  def test_the_document_has_the_sections_this_test_checks
    FILES.each { |file| assert_equal PHRASES.keys, document(file).ids, File.basename(file) }
  end

  FILES.each do |file|
    name = File.basename(file, ".jsonl")
    define_method(:"test_every_section_of_#{name}_shows_in_every_human_format") do
      doc = document(file)
      HUMAN.each do |format|
        result = ractorbench("report", file, "--format", format, env: {"COLUMNS" => "100", "NO_COLOR" => "1"})
        assert_equal 0, result.code, result.err
        page = seen(result.out, format)
        doc.sections.each do |section|
          PHRASES.fetch(section.id).call(section.content).each do |phrase|
            assert_includes page, squeeze(phrase), "#{name}: --format #{format} lost the #{section.id} section"
          end
        end
      end
    end
  end

  # Sections are present whether or not they hold anything; the files above
  # between them give every section something to show but the profiles (no
  # file here was collected with --profile). The VM notes come from
  # memory.jsonl, recorded on a busy machine: its ractor-scaling probe was
  # inconclusive, which the VM notes say (no Ruby here serialised its
  # ractors).
  def test_the_real_files_give_the_sections_something_to_show
    shown = FILES.flat_map { |f| document(f).sections.reject { |s| PHRASES.fetch(s.id).call(s.content).empty? }.map(&:id) }.uniq
    assert_equal PHRASES.keys - %i[profiles], PHRASES.keys & shown
  end
end
