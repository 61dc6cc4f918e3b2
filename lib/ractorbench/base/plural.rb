# frozen_string_literal: true

module Ractorbench
  # "1 run", "3 runs"; "W=4 exceeds", "W=4, 8 exceed": counted words agree
  # with their number, so no output says "run(s)".
  module Plural
    IRREGULAR = {"CPU" => "CPUs", "process" => "processes"}.freeze

    module_function

    # "1 run", "2 runs"; plural given when adding "s" is wrong.
    def count(n, word, plural = nil) = "#{n} #{word(n, word, plural)}"

    def word(n, word, plural = nil)
      (n == 1) ? word : (plural || IRREGULAR.fetch(word) { "#{word}s" })
    end

    # The verb of a subject that counts n things: verb(1, "exceeds", "exceed").
    def verb(n, singular, plural) = (n == 1) ? singular : plural
  end
end
