# frozen_string_literal: true

require_relative "request"
require_relative "profiled_runs"
require_relative "records"
require_relative "choice"
require_relative "../measure/progress"
require_relative "../base/plural"

module Ractorbench
  module Profile
    # --profile in a collection (run, the tour, try): before it, which
    # profiler each Ruby gets (said in one line when one is missing); in
    # the header, what was asked and chosen; after the timed runs, one
    # profiled run of each configuration.
    class Stage
      # request: a Request; say: a callable for a line on stderr.
      def initialize(request, targets, say:)
        @request = request
        @tools, @notes = request.tools(targets)
        @notes.each { |line| say.call("ractorbench: #{line}") }
      end

      # A collection resumed: what its header asked for, chosen again here.
      def self.resume(header, targets, say:)
        asked = Choice.of(header)&.asked
        asked && new(Request.new(asked), targets, say: say)
      end

      def any? = @tools.values.any?

      def to_h = Choice.new(asked: @request.asked, tools: @tools, notes: @notes).to_h

      # The profiled runs, after every timed run: one a configuration of
      # runs that has none yet in the file (writer's).
      # recorded: how many timed runs the collection holds (said if stopped).
      def collect(runs, catalog:, targets:, timeout:, writer:, io:, recorded: runs.size)
        done = Records.read(writer.path).values.to_h { |r| [r.id, true] }
        specs = ProfiledRuns.pending(runs, catalog, @tools, done: done)
        return if specs.empty?

        used = specs.map { |s| @tools[s.ruby] }.uniq.join(" and ")
        progress = Measure::Progress.for(specs.size, io: io)
        progress.say("ractorbench: --profile: #{Plural.count(specs.size, "profiled run")} (#{used}), one a configuration, " \
          "after the timed runs and not among them; profiles in #{Records.folder(writer.path)}")
        ProfiledRuns.new(catalog: catalog, targets: targets, timeout: timeout, writer: writer, tools: @tools, progress: progress)
          .collect(specs, recorded: recorded)
      end
    end
  end
end
