# frozen_string_literal: true

require_relative "crew"
require_relative "../../ractor_compat"

module Ractorbench
  module Harness
    module RubyBench
      module Crews
        # ractors: W ractors, each running the block as ruby-bench's ractors
        # do (one block each; its ractor_args copied in, or shared when
        # shareable), warmed up and waiting for a message to start; the clock
        # runs from the first message until every ractor's final value is in.
        class Ractors < Crew
          KIND = :ractor

          def variant = "ractors: W ractors, one block each (its value: #{::Ractor.method_defined?(:value) ? "Ractor#value" : "Ractor#take"})"

          def start
            raise Unsupported, "this Ruby has no Ractor" unless RactorCompat.available?

            block = shareable_block
            return [[:error, block]] if block.is_a?(String)

            @channel = RactorCompat.new_channel
            @ractors = Array.new(@plan.workers) do |i|
              ::Ractor.new(@channel, block, @captured.args, i, @plan.to_a, name: "ruby-bench-#{i}") do |channel, blk, args, index, plan|
                Crews::Ractors.serve(channel, blk, args, index, plan)
              end
            end
            Array.new(@plan.workers) { RactorCompat.receive(@channel) }.sort_by(&:first).map(&:last)
          end

          def finish
            @ractors.each { |r| r.send(:go) }
            @ractors.map { |r| RactorCompat.value(r) }
          end

          def abort
            @ractors&.each { |r| r.send(:stop) }
            @ractors&.each { |r| RactorCompat.value(r) }
          end

          # Inside each ractor.
          def self.serve(channel, block, args, index, plan)
            worker = Worker.new(Captured.new(block, args, nil), index, Plan.new(*plan))
            worker.prepare
            channel.send([index, worker.error])
            worker.measure if ::Ractor.receive == :go
          end

          private

          # ruby-bench makes the block shareable too (its harness made the
          # main object shareable for that); a block that cannot be is a
          # failure under ruby-bench's own harness as well.
          def shareable_block
            ::Ractor.make_shareable(@captured.block)
          rescue => e
            "the benchmark's block cannot be made shareable for ractors (#{e.class}: #{e.message.lines.first.to_s.strip})"
          end
        end
      end
    end
  end
end
