# frozen_string_literal: true

require "open3"
require "shellwords"
require "tmpdir"

# Runs a command on a real terminal of a given size - a tmux pane - and
# returns what the screen shows once it has finished, as a person would see
# it. Missing tmux fails the test with what to do; it never skips silently.
module TmuxHelper
  # lines: the screen and its history at the end; snapshots: the visible
  # screen as it was every 0.2 s while the command ran.
  Screen = Struct.new(:lines, :code, :snapshots, keyword_init: true) do
    def text = lines.join("\n")
  end

  # env: variables for the command; escapes: keep colour sequences in the capture.
  def on_terminal(argv, width:, env: {}, chdir: Dir.pwd, escapes: false, timeout: 300)
    tmux = ENV["PATH"].split(File::PATH_SEPARATOR).map { |d| File.join(d, "tmux") }.find { |f| File.executable?(f) } ||
      flunk("tmux is not installed: run bin/setup (apt-get install tmux)")
    Dir.mktmpdir do |dir|
      socket = File.join(dir, "tmux.sock")
      done = File.join(dir, "done")
      # env takes its options (-u) before any NAME=VALUE.
      sets = env.sort_by { |_, v| v.nil? ? 0 : 1 }.map { |k, v| v.nil? ? "-u #{k}" : "#{k}=#{Shellwords.escape(v)}" }.join(" ")
      script = "cd #{Shellwords.escape(chdir)} && env #{sets} #{argv.shelljoin}; echo $? > #{done}.tmp && mv #{done}.tmp #{done}; sleep 600"
      system(tmux, "-S", socket, "-f", File::NULL, "new-session", "-d", "-x", width.to_s, "-y", "50", "sh", "-c", script,
        exception: true)
      begin
        system(tmux, "-S", socket, "set-option", "-g", "history-limit", "10000", exception: true)
        deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + timeout
        snapshots = []
        until File.exist?(done) || Process.clock_gettime(Process::CLOCK_MONOTONIC) > deadline
          snapshots << capture(tmux, socket)
          sleep 0.2
        end
        assert File.exist?(done), "#{argv.join(" ")} did not finish within #{timeout} s"
        Screen.new(lines: capture(tmux, socket, "-S", "-", *(escapes ? ["-e"] : [])), code: File.read(done).to_i, snapshots: snapshots)
      ensure
        system(tmux, "-S", socket, "kill-server", out: File::NULL, err: File::NULL)
      end
    end
  end

  # -J joins a line the terminal wrapped, so a line too long for the pane
  # shows up as one line wider than it.
  def capture(tmux, socket, *options)
    out, status = Open3.capture2(tmux, "-S", socket, "capture-pane", "-p", "-J", *options)
    assert status.success?, "tmux capture-pane failed"
    lines = out.lines.map(&:rstrip)
    lines.pop while lines.last&.empty?
    lines
  end
end
