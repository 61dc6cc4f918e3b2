# frozen_string_literal: true

require "digest/sha1"

module Ractorbench
  module Harness
    module RubyBench
      # What a block returned, as a digest every model's runs can be checked
      # against: SHA1 of its Marshal data, streamed, and only the first LIMIT
      # bytes of it, so a block that returns its whole input (a list of
      # 100,000 strings) costs a bounded moment to check. A value Marshal
      # cannot write (a Proc, an IO, a Ractor) cannot be compared.
      module ValueDigest
        LIMIT = 1 << 20
        Full = Class.new(StandardError)

        # Takes Marshal's output into SHA1 until LIMIT bytes have come.
        class Sink
          def initialize
            @sha = Digest::SHA1.new
            @bytes = 0
          end

          def write(data)
            room = LIMIT - @bytes
            taken = (data.bytesize > room) ? data.byteslice(0, room) : data
            @sha.update(taken)
            @bytes += taken.bytesize
            raise Full if data.bytesize > room

            data.bytesize
          end

          def hexdigest = @sha.hexdigest
        end

        module_function

        # [digest, note]: note is nil, "first MB" (a longer value, checked by
        # its beginning), or why the value cannot be compared (digest nil).
        def of(value)
          sink = Sink.new
          Marshal.dump(value, sink)
          [sink.hexdigest, nil]
        rescue Full
          [sink.hexdigest, "first MB"]
        rescue => e
          [nil, "a #{value.class} cannot be compared (Marshal: #{e.message.lines.first.to_s.strip})"]
        end
      end
    end
  end
end
