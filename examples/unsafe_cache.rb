# frozen_string_literal: true

# NOT Ractor-safe, on purpose: work memoises into a Hash held in a
# constant. Serially and with threads that is a harmless cache; a ractor
# may not touch it, and `ractorbench try` says so, with the line and the fix.
#
#   ractorbench try examples/unsafe_cache.rb
module UnsafeCache
  CACHE = {}

  def self.items(n)
    Array.new(n) { |i| i % 50 }
  end

  def self.work(n)
    CACHE[n] ||= slow_square(n)
  end

  def self.slow_square(n)
    (1..20_000).reduce(0) { |sum, i| sum + (i % (n + 1)) } + n * n
  end
end
