# frozen_string_literal: true

# Entry point of one measured run on mruby (CRuby's is harness/child.rb):
# `mruby -r channel.rb -r ops_meter.rb -r subjects.rb child.rb`, the run's
# spec on stdin, its record back on fd 3 (Mruby::Channel). It runs the
# ops-per-second workload's subjects that mruby has (Mruby::Subjects) and
# answers "unsupported", naming what is missing, for everything else: a
# workload of jobs needs CRuby's harness (require, Marshal, Process).
# The driver sends the workload's default parameters with the spec, as
# this child cannot load harness/workloads/ops_per_second.rb.
module Ractorbench
  module Mruby
    module Child
      WORKLOAD = "ops-per-second"

      def self.call(spec)
        unless spec["workload"] == WORKLOAD
          return unsupported("mruby runs only the #{WORKLOAD} subjects here: the #{spec["workload"]} workload needs " \
            "ractorbench's CRuby harness (require, Marshal, Process)")
        end

        params = spec["params"]
        name = params["subject"].to_s
        subject = Subjects.find(name)
        reason = subject ? subject.unsupported_reason(spec["model"]) : Subjects.missing(name, spec["model"])
        return unsupported(reason) if reason

        ops = OpsMeter.measure(subject, settings(params, spec))
        miscount = ("the subject ran #{ops["counted"]} times, the harness timed #{ops["executions"]}" unless ops["counted"] == ops["executions"])
        record = {
          "status" => miscount ? "wrong_result" : "ok",
          "ops" => ops.merge("subject" => name, "ran" => subject.ran),
          "peak_rss_kb" => peak_rss_kb
        }
        record["reason"] = miscount if miscount
        record
      end

      def self.unsupported(reason) = {"status" => "unsupported", "reason" => reason}

      def self.settings(params, spec)
        time = params["time"].to_f
        warmup = params["warmup"]
        {
          "time" => time, "samples" => params["samples"].to_i, "warmup" => warmup.nil? ? time / 2 : warmup.to_f,
          "gc_off" => params["gc"].to_s == "off", "batch_size" => spec["workers"].to_i * spec["messages"].to_i
        }
      end

      # VmHWM from /proc, as Harness::Memory reads it; nil without it.
      def self.peak_rss_kb
        line = File.read("/proc/self/status").split("\n").find { |l| l.start_with?("VmHWM:") }
        line && line.split(" ")[1].to_i
      rescue
        nil
      end
    end
  end
end

# mruby has no exit: a failure is reported, then raised again, so the
# child ends with a non-zero status and its trace on stderr.
begin
  Ractorbench::Mruby::Channel.write(Ractorbench::Mruby::Child.call(Ractorbench::Mruby::Channel.spec))
rescue Exception => e # rubocop:disable Lint/RescueException -- a child reports every way it can fail
  Ractorbench::Mruby::Channel.write("status" => "error", "reason" => "#{e.class}: #{e.message}", "backtrace" => (e.backtrace || []).first(8))
  raise
end
