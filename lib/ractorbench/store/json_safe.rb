# frozen_string_literal: true

module Ractorbench
  module Store
    # What the writer does to a record before JSON.generate, which cannot
    # hold what a child may send: a number that is not finite (NaN,
    # Infinity) is written as null, and the record's "non_finite" object
    # names each such field ("metrics.ratio") with its value as a string
    # ("NaN", "Infinity", "-Infinity"); a string that is not valid UTF-8 is
    # converted, or, if it is bytes, has its bad bytes written \xNN; a key that is not a string becomes one;
    # anything else becomes its #to_s.
    module JsonSafe
      NAMES = {"NaN" => "NaN", "Infinity" => "Infinity", "-Infinity" => "-Infinity"}.freeze

      module_function

      def record(hash)
        found = {}
        safe = value(hash, [], found)
        found.empty? ? safe : safe.merge("non_finite" => found)
      end

      def value(item, path, found)
        case item
        when Hash then item.each_with_object({}) { |(k, v), h| h[text(k.to_s)] = value(v, path + [text(k.to_s)], found) }
        when Array then item.each_with_index.map { |v, i| value(v, path + [i.to_s], found) }
        when Float then finite(item, path, found)
        when String then text(item)
        when nil, true, false, Integer then item
        else text(item.to_s)
        end
      end

      def finite(number, path, found)
        return number if number.finite?

        found[path.join(".")] = NAMES.fetch(number.to_s)
        nil
      end

      def text(string)
        return string if string.encoding == Encoding::UTF_8 && string.valid_encoding?
        return string.encode(Encoding::UTF_8) if string.encoding != Encoding::BINARY && string.valid_encoding?

        bytes(string)
      rescue EncodingError
        bytes(string)
      end

      def bytes(string)
        utf8 = string.dup.force_encoding(Encoding::UTF_8)
        utf8.valid_encoding? ? utf8 : utf8.scrub { |bad| bad.unpack("C*").map { |b| format("\\x%02X", b) }.join }
      end
    end
  end
end
