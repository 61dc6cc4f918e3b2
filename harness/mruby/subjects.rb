# frozen_string_literal: true

# The ops/s subjects mruby can run, by the names of their CRuby namesakes in
# harness/subjects/ (whose seed call style the driver shows for both), each
# counting the operations that really ran. mruby has no Fiber::Scheduler,
# no RubyGems (so no async), no Thread, Ractor or fork in its core: a
# subject of those models is "not supported" with what is missing named.
module Ractorbench
  module Mruby
    module Subjects
      # What a subject needs that an mruby may be built without:
      # [constant, class method, what to call it when it is missing].
      FIBER = [:Fiber, :new, "Fiber (the mruby-fiber gem)"]
      PIPE = [:IO, :pipe, "IO.pipe (the mruby-io gem)"]
      SELECT = [:IO, :select, "IO.select (the mruby-io gem)"]

      # The models whose subjects need what mruby's core lacks, by the
      # start of the model's name: [the constant that would have it, what
      # is missing]. Looked up, not assumed: an mruby built with a gem that
      # has it is told the child has no such subject instead.
      LACKING = [
        ["fibers", "Fiber::Scheduler", "Fiber::Scheduler, and no RubyGems to load async from"],
        ["threads", "Thread", "Thread"],
        ["ractors", "Ractor", "Ractor"],
        ["processes", "Process", "fork: its core has no Process"]
      ]

      @all = {}

      def self.add(subject)
        @all[subject.name] = subject
      end

      def self.find(name) = @all[name]

      # Why this mruby has nothing to measure for a subject it lacks.
      def self.missing(name, model)
        lacking = LACKING.find { |prefix, constant, _| model.to_s.start_with?(prefix) && !defined_constant?(constant) }
        return "mruby has no #{lacking[2]}" if lacking

        "the mruby child has no #{name} subject (it runs #{@all.keys.join(", ")})"
      end

      def self.defined_constant?(path)
        scope = Object
        path.split("::").all? do |name|
          scope.const_defined?(name.to_sym) && (scope = scope.const_get(name.to_sym))
        end
      end

      # One subject: the driver's name for it, the model it measures, what
      # runs for each operation, what it needs.
      class Subject
        attr_reader :name, :model, :ran

        def initialize(name, model, ran, needs)
          @name = name
          @model = model
          @ran = ran
          @needs = needs
          @counter = nil
        end

        # nil, or why this mruby cannot run it under that model.
        def unsupported_reason(model)
          return "subject #{name} measures the #{@model} model, not #{model}" unless model == @model

          lacking = @needs.reject { |constant, method, _| Object.const_defined?(constant) && Object.const_get(constant).respond_to?(method) }
          "this mruby was built without #{lacking.map { |need| need[2] }.join(", ")}" unless lacking.empty?
        end

        def batch(size) = Array.new(size)

        # How many times the operation ran since `prepare`.
        def count = @counter ? @counter.call : 0

        private

        # A proc that does nothing but be counted (what `count` reads).
        def counted_proc
          ran = 0
          @counter = proc { ran }
          proc { ran += 1 }
        end
      end

      # The seed's baseline: a plain proc that does nothing but be counted.
      class ProcCall < Subject
        def prepare
          @test_proc = counted_proc
        end

        def run(batch)
          test_proc = @test_proc
          batch.each { test_proc.call }
        end
      end
      add ProcCall.new("proc-call", "serial", "proc { }.call", [])

      # A proc evaluated in a fiber of its own, no scheduler: what the
      # seed's conproc styles cost before Concurrently's bookkeeping.
      class FiberResume < Subject
        def prepare
          @body = counted_proc
        end

        def run(batch)
          body = @body
          batch.each { Fiber.new(&body).resume }
        end
      end
      add FiberResume.new("fiber-resume", "serial", "Fiber.new { }.resume", [FIBER])

      # Nothing but a counter (the harness's own check, not in the tables).
      class Empty < Subject
        def prepare
          ran = 0
          @run = proc { |batch| batch.each { ran += 1 } }
          @counter = proc { ran }
        end

        def run(batch) = @run.call(batch)
      end
      add Empty.new("empty", "serial", "batch.each { n += 1 }", [])

      # Awaiting a pipe as a fiber does under a scheduler, with the smallest
      # loop that does it: the batch runs in a fiber that yields each pipe
      # to the loop; the loop polls it with IO.select and resumes the fiber
      # with whether it is ready; a wait counts only when it was. (CRuby's
      # rows go through async's selector; this is mruby's own IO.select.)
      class AwaitPipe < Subject
        def initialize(name, ran, direction)
          super(name, "fibers", ran, [FIBER, PIPE, SELECT])
          @direction = direction
        end

        def prepare
          ran = 0
          readable = @direction == :read
          @waiter = proc do |batch|
            batch.each do |pipe|
              io = readable ? pipe[0] : pipe[1]
              ran += 1 if Fiber.yield(io) == io
            end
          end
          @counter = proc { ran }
        end

        # Each pipe stays ready: a byte nobody reads, or nothing written.
        def batch(size)
          Array.new(size) do
            pipe = IO.pipe
            pipe[1].write("0") if @direction == :read
            pipe
          end
        end

        def run(batch)
          fiber = Fiber.new(&@waiter)
          io = fiber.resume(batch)
          while fiber.alive?
            ready = (@direction == :read) ? IO.select([io], nil, nil, nil)[0] : IO.select(nil, [io], nil, nil)[1]
            io = fiber.resume(ready.include?(io) ? io : nil)
          end
        end
      end
      add AwaitPipe.new("await-readable", "Fiber.yield a pipe holding data to a loop; IO.select([r]), resume", :read)
      add AwaitPipe.new("await-writable", "Fiber.yield an empty pipe to a loop; IO.select(nil, [w]), resume", :write)
    end
  end
end
