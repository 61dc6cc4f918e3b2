# frozen_string_literal: true

require_relative "../base/paths"

module Ractorbench
  module Rubies
    # The programs a Ruby under test runs, chosen by its engine as its probe
    # reported it. CRuby's harness (harness/*.rb) serves every Ruby that can
    # load it (CRuby, JRuby, TruffleRuby: require, Marshal, Process). mruby
    # has none of those, so it runs its own small programs (harness/mruby/),
    # each given its library files with `mruby -r`, since it has no require.
    # Both speak the same channel (Marshal's format, plain data, fd 3). A
    # Ruby of unknown engine is asked the probes in order: one that cannot
    # run CRuby's is asked mruby's.
    class ChildPrograms
      attr_reader :engine, :probe, :child, :features

      # engine: the probe's "engine" that selects these (nil: any other);
      # probe, child: what follows the Ruby's command, script last.
      # loads_harness: false where the child cannot load harness/workloads/,
      # so the driver sends the workload's default parameters in the spec.
      # features: {probe's feature key => its name}, what `rubies` lists as
      # this engine has or lacks them (CRuby's are the table's columns).
      def initialize(engine:, probe:, child:, loads_harness:, features: {})
        @engine = engine
        @probe = probe
        @child = child
        @loads_harness = loads_harness
        @features = features
      end

      def loads_harness? = @loads_harness

      # A record from these probes is believed only if it names their engine.
      def engine?(info) = engine.nil? || info&.fetch("engine", nil) == engine

      def self.mruby_command(*files)
        *libraries, script = files.map { |f| File.join(HARNESS_DIR, "mruby", f) }
        [File.join(HARNESS_DIR, "mruby", "channel.rb"), *libraries].flat_map { |lib| ["-r", lib] } + [script]
      end

      CRUBY = new(engine: nil, probe: [File.join(HARNESS_DIR, "probe.rb")], child: [File.join(HARNESS_DIR, "child.rb")],
        loads_harness: true)
      # What mruby may be built with or without (harness/mruby/probe.rb's keys).
      MRUBY_FEATURES = {
        "proc" => "Proc", "fiber" => "Fiber", "io_pipe" => "IO.pipe", "io_select" => "IO.select", "time" => "Time",
        "monotonic_clock" => "a monotonic clock", "gc_disable" => "GC.disable", "thread" => "Thread", "ractor" => "Ractor",
        "fork" => "fork", "marshal" => "Marshal"
      }.freeze
      MRUBY = new(engine: "mruby", probe: mruby_command("probe.rb"), child: mruby_command("ops_meter.rb", "subjects.rb", "child.rb"),
        loads_harness: false, features: MRUBY_FEATURES)
      # In the order an unknown Ruby is probed.
      ALL = [CRUBY, MRUBY].freeze

      # info: a probe's record (Target#info).
      def self.for(info)
        ALL.find { |programs| programs.engine && programs.engine?(info) } || CRUBY
      end
    end
  end
end
