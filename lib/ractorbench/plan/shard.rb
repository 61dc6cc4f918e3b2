# frozen_string_literal: true

require "digest"
require_relative "../base/errors"
require_relative "run_spec"

module Ractorbench
  module Plan
    # `run --shard I/N`: the runs of a plan whose key falls in slice I of N.
    # The key is a hash of the run's id, never its position in the plan, so a
    # run is in the same shard whatever else the plan holds: adding a Ruby or
    # a model adds runs to every shard and moves none. Any engine that can
    # start N jobs (a CI matrix, a Kubernetes Indexed Job) runs a plan in
    # parallel; `ractorbench merge` joins the slices.
    Shard = Struct.new(:index, :count) do
      def self.parse(text)
        m = %r{\A(\d+)/(\d+)\z}.match(text.to_s.strip)
        unless m
          raise UsageError, "--shard takes I/N, this job's slice of N (1 <= I <= N), e.g. --shard 2/4; got #{text.inspect}"
        end

        index, count = Integer(m[1], 10), Integer(m[2], 10)
        raise UsageError, "--shard #{text}: N (the number of slices) must be 1 or more, e.g. --shard 1/4" if count.zero?
        if index < 1 || index > count
          raise UsageError, "--shard #{text}: I must be from 1 to #{count} (slices are numbered from 1), e.g. --shard 1/#{count}"
        end
        new(index, count)
      end

      # The slice (1..count) a run id falls in: the first 8 bytes of its
      # SHA-256, so every machine and Ruby computes the same slice.
      def self.slice_of(id, count) = Digest::SHA256.digest(id).unpack1("Q>") % count + 1

      def include?(spec) = self.class.slice_of(spec.id, count) == index

      # The runs of this slice, in the plan's (shuffled) order.
      def select(runs) = runs.select { |spec| include?(spec) }

      def to_s = "#{index}/#{count}"

      # What the results header records: which slice, and of which plan.
      def to_h(plan_runs)
        {"index" => index, "count" => count, "plan" => Plan::Shard.fingerprint(plan_runs), "plan_runs" => plan_runs.size}
      end

      # What makes two collections slices (or copies) of one plan: the same
      # runs, Rubies aside, since a CI matrix gives each job its own Ruby.
      # The seed (the order) does not matter. RunSpecs or plan hashes.
      def self.fingerprint(runs)
        keys = runs.map { |spec| rubyless_key(spec) }.uniq.sort
        "sha256:" + Digest::SHA256.hexdigest(keys.join("\n"))
      end

      def self.rubyless_key(spec)
        spec = RunSpec.from_h(spec.to_h.transform_keys(&:to_s)) unless spec.is_a?(RunSpec)
        spec.configuration.rubyless_id(spec.rep)
      end
    end
  end
end
