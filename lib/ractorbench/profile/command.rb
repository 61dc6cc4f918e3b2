# frozen_string_literal: true

require "open3"
require_relative "../measure/process_tree"

module Ractorbench
  module Profile
    # Runs a profiler's own program (perf record's check, perf script) with a
    # time limit, in its own process group, killed whole at the limit: a
    # profiler that hangs must not hang the collection.
    module Command
      Result = Struct.new(:ok, :output, :errors, :reason, keyword_init: true)

      module_function

      # stdout: a path to write the program's output to (else it is kept);
      # env: variables to set for it (only: its whole environment).
      def run(argv, timeout:, stdout: nil, env: {}, only: false)
        out = stdout ? File.open(stdout, "wb") : nil
        tree = Measure::ProcessTree.new
        Open3.popen3(env.merge(tree.env), *argv, pgroup: true, in: File::NULL, unsetenv_others: only) do |stdin, output, errors, waiter|
          stdin.close
          readers = [Thread.new { out ? IO.copy_stream(output, out) : output.read }, Thread.new { errors.read }]
          unless waiter.join(timeout)
            tree.kill(waiter.pid)
            waiter.join
            return Result.new(ok: false, output: "", errors: "", reason: "#{argv.first} did not finish within #{timeout.round}s")
          end
          text, messages = readers.map(&:value)
          status = waiter.value
          Result.new(ok: status.success?, output: out ? "" : text.to_s, errors: messages.to_s,
            reason: status.success? ? nil : first_line(messages) || "#{argv.first} exited with status #{status.exitstatus}")
        end
      rescue Errno::ENOENT, Errno::EACCES, Errno::ENOEXEC => e
        Result.new(ok: false, output: "", errors: "", reason: e.message)
      ensure
        out&.close
      end

      # The first line of what a program said that is not blank.
      def first_line(text)
        text.to_s.lines.map(&:strip).reject(&:empty?).first
      end
    end
  end
end
