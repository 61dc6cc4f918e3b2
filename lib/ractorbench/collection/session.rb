# frozen_string_literal: true

module Ractorbench
  class Collection
    # What a collection runs once open: the catalog, the probed Rubies, the
    # runs still to run and where they go. suspects: ids of runs a signal to
    # the collector alone stopped before; planned: every run of the plan (on
    # --resume, runs holds those left).
    Session = Struct.new(:catalog, :targets, :runs, :writer, :timeout, :first_seq, :suspects, :profile, :planned,
      keyword_init: true)
  end
end
