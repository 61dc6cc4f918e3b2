# frozen_string_literal: true

# String crunching: each item is a paragraph of generated text; work
# normalises it, splits it into words and counts the ten most frequent ones
# that are not stop words. Pure Ruby string and hash work.
#
#   ractorbench try examples/string_crunch.rb
module StringCrunch
  WORDS = %w[ractor thread fiber process queue port message worker result ruby
    the a of to and in is on for with scheduler lock value select].freeze
  # Constants read by work must be shareable (deeply frozen) for ractors:
  # the frozen_string_literal comment above freezes the strings, .freeze
  # the containers.
  STOP_WORDS = %w[the a of to and in is on for with].to_h { |w| [w, true] }.freeze

  def self.items(n)
    Array.new(n) do |i|
      Array.new(400) { |j| WORDS[(i * 7 + j * j) % WORDS.size] }.join((i.even? ? " " : ", ")).capitalize + "."
    end
  end

  def self.work(text)
    counts = Hash.new(0)
    text.downcase.tr(".,;:!?", " ").split.each { |word| counts[word] += 1 unless STOP_WORDS[word] }
    counts.sort_by { |word, count| [-count, word] }.first(10)
  end
end
