# frozen_string_literal: true

module Ractorbench
  module Harness
    # Ruby takes its default external encoding, and on Unix the file
    # system's, from the locale: US-ASCII when there is none (env -i, cron,
    # many containers), where a folder or a file with a non-ASCII letter
    # cannot be read as text. ractorbench's text is UTF-8 whatever the
    # locale: the driver and every child it starts say so first.
    module TextEncoding
      module_function

      def utf8!
        return if Encoding.default_external == Encoding::UTF_8

        verbose, $VERBOSE = $VERBOSE, nil
        begin
          Encoding.default_external = Encoding::UTF_8
        ensure
          $VERBOSE = verbose
        end
      end

      # A string that came in as the locale's (a command-line word, a
      # variable): UTF-8 when its bytes are, else bytes.
      def utf8(text)
        utf8 = text.dup.force_encoding(Encoding::UTF_8)
        utf8.valid_encoding? ? utf8 : utf8.force_encoding(Encoding::BINARY)
      end
    end
  end
end
