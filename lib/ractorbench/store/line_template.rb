# frozen_string_literal: true

require "json"
require_relative "run_record"

module Ractorbench
  module Store
    class Columns
      # A run line of a configuration in the shape its fast path knows, as
      # one Regexp for the line after its id's label (RunTable::RUN_START
      # reads that far): every constant field as the exact JSON text that
      # parses to it, every varying one a number, boolean, string or flat
      # list of a form RunRecord accepts, captured. A line it takes is folded
      # without JSON.parse of the line,
      # without a Hash and without a method call per field (parsing and
      # folding field by field were most of reading a million runs); a line
      # it does not match (other spacing, escapes, a value out of range, a
      # cut line) is parsed and folded as before. So the template decides
      # how fast a line is read, never what is read from it.
      class LineTemplate
        # A JSON string with no \u escape (those go the slow way: a lone
        # surrogate is JSON's to judge), and a flat list of such strings or
        # integers: what real runs vary in besides numbers (a status, a
        # digest, a failure's stderr lines, each worker's jobs).
        STRING = "\"(?>[^\"\\\\\\x00-\\x1f]+|\\\\[\"\\\\/bfnrt])*\""
        ITEM = "(?:#{STRING}|-?(?:0|[1-9][0-9]{0,17}))"
        TEXTS = {
          # A field RunRecord checks against a list: only the listed values.
          [:status, String] => "(\"(?:#{RunRecord::STATUSES.join("|")})\")",
          [:printed, String] => "(#{STRING})", [nil, String] => "(#{STRING})",
          [:printed_lines, Array] => "(\\[(?:#{STRING}(?:,#{STRING})*)?\\])",
          [nil, Array] => "(\\[(?:#{ITEM}(?:,#{ITEM})*)?\\])"
        }.freeze
        # Each varying field's form, by what RunRecord.field wants of it and
        # by the type of its value in the line that set the template up:
        # digits that String#to_i and #to_f read exactly as JSON does, small
        # enough that nothing overflows, and for a checked kind only values
        # the check passes (a count positive; seconds 0 or from a nanosecond
        # to under a year; an amount from 0 to under RunRecord::MAX_AMOUNT).
        FORMS = {
          [:count, Integer] => "([1-9][0-9]{0,17})",
          [:seconds, Integer] => "(0|[1-9][0-9]{0,6})",
          [:seconds, Float] => "(0\\.0|0\\.0{0,8}[1-9][0-9]{0,23}|[1-9][0-9]{0,6}\\.[0-9]{1,24}|[1-9]\\.[0-9]{1,24}e-0[1-9])",
          [:amount, Integer] => "(0|[1-9][0-9]{0,14})",
          [:amount, Float] => "((?:0|[1-9][0-9]{0,14})\\.[0-9]{1,24}(?:e-[0-9]{2})?)",
          [nil, Integer] => "(-?(?:0|[1-9][0-9]{0,17}))",
          [nil, Float] => "(-?(?:0|[1-9][0-9]{0,15})\\.[0-9]{1,24}(?:e[-+][0-9]{2})?)",
          [:boolean, true] => "(true|false)", [:boolean, false] => "(true|false)",
          [nil, true] => "(true|false)", [nil, false] => "(true|false)",
          **TEXTS
        }.freeze
        # A LAZY field stays in the file, unread: any value of its line's
        # type in a plain form (a string without escapes, any JSON number, a
        # flat list); another form goes the slow way.
        NUMBER = "-?(?:0|[1-9][0-9]*)(?:\\.[0-9]+)?(?:[eE][-+]?[0-9]+)?"
        LAZY_FORMS = {
          String => "\"[^\"\\\\\\x00-\\x1f]*\"", Integer => NUMBER, Float => NUMBER,
          Array => "\\[(?:#{ITEM}(?:,#{ITEM})*)?\\]", true => "(?:true|false)", false => "(?:true|false)"
        }.freeze
        # The varying fields whose values are objects (not numbers or flags):
        # each made what RunRecord makes of it and shared.
        TEXTS_OF = [String, Array].freeze
        # Distinct texts a JSON column keeps its values of, shared by the
        # runs that wrote the same (a column of a million digests holds a
        # few Strings); past this many, each text is read on its own.
        SHARED = 4096
        # The repetition an id ends with: the same digits as the rep field's, checked.
        REP = "([1-9][0-9]{0,9})"

        # nil when some field cannot be put this way: a line that does not
        # start as RUN_START reads, an id not made from a varying rep, a
        # varying string, a constant JSON cannot write. constants: field
        # index => value; samples: the line that set the fast path up, as kept;
        # id_prefix: a planned id up to its repetition ("label/rep").
        def self.for(keys, constants, samples, varying, id_at, rep_at, id_prefix)
          return nil unless keys[0] == "type" && constants[0] == "run" && id_at == 1
          return nil unless varying.any? { |i, *| i == rep_at } && !constants.each_value.any?(Marker)
          # Lines are looked up by their id's text up to "/rep" (RunTable): that
          # text is the label only when JSON writes the label as it is.
          return nil unless JSON.generate(id_prefix) == "\"#{id_prefix}\""

          parts = keys.each_with_index.drop(2).map do |key, i|
            pattern = if LAZY.key?(key) then LAZY_FORMS[sample_type(samples[i])] or return nil
            elsif constants.key?(i) then Regexp.escape(JSON.generate(constants[i]))
            else
              form(varying.find { |j, *| j == i }, samples[i]) or return nil
            end
            ",#{Regexp.escape(JSON.generate(key))}:#{pattern}"
          end
          texts = varying.each_with_index.filter_map { |(i, _, key, kind), j| [j, key, kind] if TEXTS_OF.include?(samples[i].class) }
          new(Regexp.new("#{REP}\"#{parts.join}\\}\\n"), texts, varying.index { |i, *| i == rep_at })
        rescue JSON::GeneratorError, EncodingError, RegexpError
          nil
        end

        def self.form((_, _, _, kind), sample) = FORMS[[kind, sample_type(sample)]]

        def self.sample_type(sample) = (sample == true || sample == false) ? sample : sample.class

        # rep: which varying field is the rep (the captures: the id's
        # repetition first, then the varying fields in order).
        # texts: [j, key, kind] of the varying fields that are strings or
        # lists, made what RunRecord makes of them (printable) and shared by
        # the runs that wrote the same.
        def initialize(regexp, texts, rep)
          @regexp = regexp
          @rep = rep
          @texts = texts.each_with_index.map { |text, at| [*text, {}, at] }
          @found = Array.new(texts.size)
        end

        # The varying fields of the rest of the line at scanner's position
        # when it matches (the scanner then past it), as values in the fast
        # path's order; nil for a line to be read the slow way. Every capture
        # is JSON text: they are read by one JSON.parse, as the whole line
        # would have been, not a call a field.
        def captures(scanner)
          scanner.skip(@regexp) or return nil
          captures = scanner.captures
          id_rep = captures.shift
          return nil unless id_rep == captures[@rep]

          # A text is looked up by its JSON text, and only one not seen
          # before is parsed: a million runs' digests and job lists are a
          # few texts, and hashing a String is cheaper than parsing it and
          # hashing what it parses to.
          # (Loops, not blocks: this is done for every text of every line.)
          texts = @texts
          found = @found
          at = 0
          while (text = texts[at])
            j, key, kind, shared = text
            shared.clear if shared.size > SHARED
            raw = captures[j]
            found[at] = shared[raw] || (shared[raw] = RunRecord.field(key, JSON.parse(raw), kind).freeze)
            captures[j] = "null"
            at += 1
          end
          values = JSON.parse("[#{captures.join(",")}]")
          at = 0
          while (text = texts[at])
            values[text[0]] = found[at]
            at += 1
          end
          values
        end
      end
    end
  end
end
