# frozen_string_literal: true

require "json"
require "strscan"

module Ractorbench
  module Store
    # A header holds its plan: every run the collection was to make, about a
    # hundred bytes each. Parsed whole, a million of them are 300 MB that
    # `report` never reads. So a reader that does not want them (Store.read
    # plan: false) has a header longer than INLINE parsed without that list:
    # the list is checked a piece at a time (each piece parsed as JSON and
    # dropped, so it is checked as closely, in bounded memory), the rest of
    # the header parsed and checked as always, and its plan then has no
    # "runs". A list not cut this way is parsed with the rest.
    module HeaderPlan
      INLINE = 1024 * 1024
      PIECE = 1024 * 1024
      # Where the writer puts the list (Commands::Run, Store::Merge): the
      # plan's seed, then its runs. Inside a JSON string every quote is
      # escaped, so this text is structure, never a string's contents.
      AT = /"plan":\{"seed":(?:-?[0-9]+|null),"runs":\[/n
      # Between two runs, and after the last.
      BETWEEN = /\},\{/n
      LAST = /\}\]/n
      # What the list is swapped for, to check it was the top-level plan's.
      MARK = "ractorbench: runs left in the file"

      module_function

      # The header line's Hash without its plan's runs, or nil when the line
      # is short or its list not cut this way (parse it whole).
      def parse(line)
        return nil if line.bytesize <= INLINE

        # Bytes, so that positions are byte offsets (the line is shared, not copied).
        scanner = StringScanner.new(line.dup.force_encoding(Encoding::BINARY))
        scanner.skip_until(AT) or return nil
        from = scanner.pos - 1
        to = list_end(scanner) or return nil
        header = JSON.parse("#{line.byteslice(0, from)}#{JSON.generate(MARK)}#{line.byteslice(to..)}")
        return nil unless header.is_a?(Hash) && header["plan"].is_a?(Hash) && header["plan"]["runs"] == MARK

        header["plan"].delete("runs")
        header
      end

      # Where the list that starts before scanner's position ends, every
      # piece of it parsed on the way; nil when a piece does not parse (a
      # cut inside a string: then the header is parsed whole).
      def list_end(scanner)
        return scanner.pos + 1 if scanner.peek(1) == "]"

        loop do
          start = scanner.pos
          scanner.pos = [start + PIECE, scanner.string.bytesize].min
          if scanner.skip_until(BETWEEN)
            return nil unless list?(scanner.string.byteslice(start, scanner.pos - 2 - start))

            scanner.pos -= 1 # at the next run's "{"
          else
            # The last piece ends at the first "}]" after which it parses.
            scanner.pos = start
            while scanner.skip_until(LAST)
              return scanner.pos if list?(scanner.string.byteslice(start, scanner.pos - 1 - start))
            end
            return nil
          end
        end
      end

      def list?(runs)
        JSON.parse("[#{runs}]").is_a?(Array)
      rescue JSON::ParserError
        false
      end
    end
  end
end
