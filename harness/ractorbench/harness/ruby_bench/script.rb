# frozen_string_literal: true

require_relative "../prepared_run"
require_relative "layout"
require_relative "refusal"
require_relative "worker"

module Ractorbench
  module Harness
    module RubyBench
      # Loads one benchmark of the checkout in this child: its script's top
      # level (set-up, data, gems) runs as under ruby-bench, and its
      # run_benchmark, ractorbench's (harness/ruby_bench/harness.rb), keeps
      # the block instead of timing it.
      module Script
        @captured = nil
        @harness = false

        class << self
          # Our harness.rb, as ruby-bench's loader required it.
          def harness_loaded!
            @harness = true
          end

          # The first call wins: a script with run_benchmark in both branches
          # of an if runs the branch it took.
          def capture(block, args, hint)
            @captured ||= Captured.new(block, args, hint)
          end

          # The checkout whose harness/loader.rb this child loaded (the run's
          # spec lists it after the workload's own file).
          def checkout
            loader = $LOADED_FEATURES.find { |path| path.end_with?("/#{Layout::LOADER}") }
            loader && File.dirname(loader, 2)
          end

          # The benchmark's Captured, or Unsupported saying why it cannot run.
          def load(name)
            return @captured if @captured

            root = checkout
            raise Unsupported, "no ruby-bench checkout was loaded: run it with `ractorbench run --ruby-bench DIR`" unless root
            unless @harness
              raise Unsupported, "#{root}/#{Layout::LOADER} did not load a harness through `require \"harness\"`, " \
                "so this checkout does not follow ruby-bench's harness convention"
            end

            script = Layout.script(root, name)
            raise Unsupported, "#{name} has no script in the checkout (#{Layout.candidates(name).first(2).join(" or ")})" unless script

            run(root, script)
            @captured or raise "#{script} never called run_benchmark"
          end

          private

          # ruby-bench seeds the generator before a benchmark's code runs.
          def run(root, script)
            Random.srand(1337)
            require File.join(root, script)
          rescue Unsupported
            raise
          rescue ScriptError, StandardError => e
            pointers = Layout.lfs_pointers(root, script)
            unless pointers.empty?
              raise Unsupported, "#{pointers.first} is a Git LFS pointer, not the file's contents: `git lfs pull` in #{root}"
            end

            refusal = Refusal.of(e, root)
            Refusal.raise!(*refusal) if refusal

            raise
          end
        end
      end
    end
  end
end
