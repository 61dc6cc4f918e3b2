# frozen_string_literal: true

require "digest/sha1"

module Ractorbench
  module Harness
    module Try
      # What every model must agree on: each item's result, in item order.
      # Results are compared by content (their Marshal form), so a result that
      # crossed a pipe or a ractor boundary as a copy still matches.
      #
      # Half a million tiny items must not cost seconds after the measured part
      # (issue 14): results are put in order by index, not sorted, and when
      # every one is a plain value they are dumped in one Marshal call. Plain
      # values only: nil, true, false, fixnums and symbols have no object
      # identity for Marshal to link, and plain Strings are copied so that none
      # is linked, so their dump is the same whichever model made them; any
      # other result is dumped alone, as a copy would be.
      module ResultDigest
        FIXNUM = -(2**62)...(2**62)
        PLAIN = [NilClass, TrueClass, FalseClass, Symbol, Integer, String].freeze

        module_function

        def call(indexed_results)
          values = plain_in_order(indexed_results)
          return Digest::SHA1.base64digest("plain:" + Marshal.dump(values)) if values

          sha = Digest::SHA1.new
          buffer = String.new(capacity: 1 << 17, encoding: Encoding::BINARY)
          indexed_results.sort_by(&:first).each do |index, result|
            buffer << "#{index}:" << fingerprint(result) << "\n"
            next if buffer.bytesize < (1 << 16)

            sha << buffer
            buffer.clear
          end
          (sha << buffer).base64digest
        end

        # The results by index when the indexes are exactly 0...n and every
        # result is plain; else nil (a duplicate or a gap is digested pair by
        # pair, so it still changes the digest). Array's own methods (in C)
        # do the per-item work: a Ruby loop over 500,000 results costs ~0.5 s.
        def plain_in_order(indexed_results)
          return [] if indexed_results.empty?

          indexes, values = pairs(indexed_results)
          return nil unless indexes

          expected = (0...indexes.size).to_a
          unless indexes == expected
            return nil unless indexes.all?(Integer) && indexes.sort == expected

            ordered = Array.new(values.size)
            indexes.each_with_index { |index, at| ordered[index] = values[at] }
            values = ordered
          end
          plain(values)
        end

        # [indexes, results], or nil when the pairs are not all [index, result].
        def pairs(indexed_results)
          indexed_results.transpose.tap { |columns| return nil unless columns.size == 2 }
        rescue IndexError, TypeError
          nil
        end

        # The values, Strings copied (two results that are one String object
        # would be linked in a dump; equal copies from another process would
        # not), or nil when any is not plain.
        def plain(values)
          # The common case first, without a block: Integer results.
          return ((values.minmax.all? { |i| FIXNUM.cover?(i) }) ? values : nil) if values.all?(Integer)

          classes = values.map(&:class).uniq
          return nil unless (classes - PLAIN).empty?
          return nil if classes.include?(Integer) && !values.grep(Integer).minmax.all? { |i| FIXNUM.cover?(i) }
          return values unless classes.include?(String)
          return nil unless values.grep(String).all? { |s| s.instance_variables.empty? }

          values.map { |v| v.instance_of?(String) ? v.dup : v }
        end

        # Marshal where it can, else `inspect` with object addresses masked
        # (they differ between processes, the content does not).
        def fingerprint(object)
          Marshal.dump(object)
        rescue TypeError
          object.inspect.gsub(/0x\h+/, "0x")
        end
      end
    end
  end
end
