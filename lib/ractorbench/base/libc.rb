# frozen_string_literal: true

module Ractorbench
  # A C library function called through Fiddle (prctl, malloc_trim), or nil
  # where there is none: no fiddle, another libc, no such symbol. What uses
  # one does without it. The rescue names no Fiddle constant: a Ctrl-C
  # that stops `require "fiddle"` half way leaves Fiddle undefined, and a
  # rescue clause naming Fiddle::DLError then raised NameError in place of
  # the Interrupt (a report interrupted there exited 1, not 130).
  module LibC
    module_function

    # name: the C symbol; args and result: Fiddle::TYPE_ names, e.g. :INT.
    def function(name, args, result)
      require "fiddle"
      types = ->(type) { Fiddle.const_get(:"TYPE_#{type.upcase}") }
      Fiddle::Function.new(Fiddle::Handle::DEFAULT[name], args.map(&types), types.call(result))
    rescue LoadError, StandardError # Fiddle::DLError is a StandardError
      nil
    end
  end
end
