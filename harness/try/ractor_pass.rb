# frozen_string_literal: true

require_relative "../ractorbench/harness"
require_relative "ractor_check"
require_relative "constant_owner"
require_relative "lazy_load"
require_relative "object_path"
require_relative "result_digest"
require_relative "user_code"

module Ractorbench
  module Harness
    module Try
      # Runs the user's work on real items inside a real ractor, in a process
      # whose main ractor has loaded the file and built the items but never
      # called work, as in a sweep's ractors run: code loaded on first use
      # loads inside the ractor, as it would there.
      #
      # It follows each failure and goes on, so that one check finds every
      # problem: a constant whose value other ractors may not read is made
      # shareable here (as the suggested fix would) and the item is tried
      # again; code loaded on first use is loaded here, in the main ractor.
      # Each such remedy is recorded: together they are the fix, which is
      # then checked by loading the user's file with it (see FixCheck).
      class RactorPass
        MAX_REMEDIES = 30
        # Objects walked to learn what a frozen constant holds, so that a
        # FrozenError inside the ractor can be traced to it.
        WALK_LIMIT = 100_000

        def initialize(target, items, file, budget:, remedies: true)
          @target = target
          @items = items
          @file = file
          @budget = budget
          @remedies_on = remedies
          @problems = {}
          @remedies = []
          @frozen = {}
          @blocked = {}
          @results = {}
          @spent = 0.0
        end

        # For a check stopped by the time limit: another ractor's backtrace
        # cannot be read, so the item in progress runs here, one at a time,
        # for a moment. [frame where it was, or nil; whether it finished].
        def where(seconds = 0.5)
          return [nil, false] unless @item

          runner = Thread.new do
            Thread.current.report_on_exception = false
            @target.work(@item)
          end
          return [nil, true] if runner.join(seconds)

          frame = UserCode.frame(runner.backtrace, @file)
          runner.kill
          [frame, false]
        rescue Exception # rubocop:disable Lint/RescueException -- it raised: it finished
          [nil, true]
        end

        # {"problems" => [facts...], "remedies" => [...], "checked" => n, "stopped_at" => key}
        def call
          @channel = RactorCompat.new_channel
          @worker = Ractor.new(@channel, @target, name: "ractorbench-try-check") { |out, mod| RactorCheck.serve(out, mod) }
          @items.each_with_index do |item, index|
            break if index.positive? && @spent > @budget
            break if run_item(item, index) == :stop
          end
          stop_worker
          compare_with_serial
          {"problems" => @problems.values, "remedies" => @remedies, "checked" => @results.size,
           "serial_failures" => @serial_failures, "stopped_at" => @stopped_at}
        end

        private

        def run_item(item, index)
          loop do
            tag, payload = attempt(item, index)
            case tag
            when :ok
              @results[index] = payload
              return :ok
            when :item_refused
              add(RactorCheck.travel_problem("item", index, item, payload))
              return :stop
            when :unsendable
              add(RactorCheck.travel_problem("result", index, serial_result(item), payload))
              return :stop
            else
              key = add(classify(payload, index))
              next if @remedies_on && @remedies.size < MAX_REMEDIES && remedy(key, @problems[key])

              return blocked(key, index)
            end
          end
        end

        # A problem the check cannot get past: try the next item, unless
        # this problem already stopped one (the rest will meet it too).
        def blocked(key, index)
          stop = @blocked.key?(key)
          @blocked[key] = index
          return :next unless stop

          @stopped_at = key
          :stop
        end

        def attempt(item, index)
          @item = item
          started = now
          begin
            @worker.send([index, item])
          rescue Exception => e # rubocop:disable Lint/RescueException -- an item that cannot be copied in
            return [:item_refused, e]
          end
          tag, _, payload = receive
          while tag == :call
            @worker.send(main_call(*payload))
            tag, _, payload = receive
          end
          [tag, payload]
        ensure
          @spent += now - started
        end

        # Received on a helper thread: a main thread blocked in
        # Ractor.receive never serves the `require` that Ruby 3.4 hands from
        # a ractor to the main one (work that loads code on first use would
        # hang the check), while one waiting on a thread does.
        def receive
          Thread.new { RactorCompat.receive(@channel) }.value
        end

        # A call the check's copy hands to the main ractor (RactorCheck.main_call).
        def main_call(receiver, name, args)
          [:ok, receiver.public_send(name, *args)]
        rescue => e
          [:raised, RuntimeError.new("#{e.class}: #{e.message}")]
        end

        def stop_worker
          @worker.send(nil)
          RactorCompat.value(@worker)
        rescue Ractor::Error
          nil
        end

        def classify(error, index)
          base = {"stage" => "work", "index" => index, "error" => error}.merge(RactorCheck.facts(error, @target, @file))
          if LazyLoad.error?(error)
            base.merge("kind" => "lazy_load", "lazy" => LazyLoad.facts(error, base["source"]))
          elsif error["class"] == "FrozenError" && (key = frozen_constant(error["receiver_id"]))
            base.merge("kind" => "changes_frozen", "of" => key)
          elsif error["class"] == "Ractor::IsolationError" && (name = error["message"][/constant ([A-Z][\w:]*)/, 1])
            base.merge("kind" => "constant", "named" => name, "constant" => ConstantOwner.resolve(name) || {"name" => name})
          else
            base.merge("kind" => "raised")
          end
        end

        # One entry per constant, per thing loaded lazily, per other failure
        # at a line; later items meeting it again only count.
        def add(problem)
          key = key_of(problem)
          if (known = @problems[key])
            known["items"] = known.fetch("items", 1) + 1
          else
            @problems[key] = problem.merge("key" => key)
          end
          key
        end

        def key_of(problem)
          case problem["kind"]
          when "constant" then "constant #{problem["constant"]["name"]}"
          when "lazy_load" then "lazy_load #{problem["where"]}"
          when "changes_frozen" then "changes #{problem["of"]}"
          else "#{problem["kind"]} #{problem.dig("error", "class")} #{problem["where"]}"
          end
        end

        def remedy(key, problem)
          case problem["kind"]
          when "constant" then freeze_constant(key, problem)
          when "lazy_load" then load_lazily(problem)
          when "changes_frozen" then changes_frozen(key, problem)
          end
        end

        # Makes the constant's value shareable here; false when Ruby refuses
        # (it holds a Proc with unshareable self, an IO, a Mutex, ...).
        def freeze_constant(key, problem)
          info = problem["constant"]
          return false unless info["owner"]

          value = ConstantOwner.value(info)
          return false if Ractor.shareable?(value)

          ids = reachable_ids(value)
          Ractor.make_shareable(value)
          @frozen[key] = ids
          problem["remedy"] = "make_shareable"
          @remedies << {"kind" => "freeze", "problem" => key, "name" => info["name"], "expression" => info["expression"],
                        "library" => info["library"]}
          true
        rescue Ractor::Error, TypeError, ArgumentError, NameError => e
          problem["shareable_error"] = ErrorText.of(e)
          false
        end

        def load_lazily(problem)
          done = LazyLoad.load_now(problem["lazy"], UserCode.frame(problem.dig("error", "backtrace"), @file))
          return false unless done

          problem["remedy"] = done
          @remedies << done.merge("problem" => key_of(problem))
          true
        end

        # Work writes into the constant the check froze: freezing is not the
        # fix for it, and nothing past this point can run.
        def changes_frozen(key, problem)
          constant = @problems[problem["of"]]
          @problems.delete(key)
          if constant
            constant["changed_by_work"] = {"where" => problem["where"], "source" => problem["source"]}.compact
            constant.delete("remedy")
            @remedies.reject! { |r| r["problem"] == problem["of"] }
          end
          false
        end

        def frozen_constant(id)
          id && @frozen.find { |_, ids| ids.key?(id) }&.first
        end

        def reachable_ids(value)
          ids = {}
          ObjectPath.find(value, "", limit: WALK_LIMIT) { |object| !(ids[object.object_id] = true) }
          ids
        end

        # Results the ractor computed must equal the main ractor's; a failure
        # that also happens serially is the contract's (the serial check
        # reports it), not the ractor's.
        def compare_with_serial
          @serial_failures = 0
          @results.each do |index, result|
            serial = serial_result(@items[index])
            @serial_failures += 1 if serial == :raised
            next if serial == :raised || ResultDigest.fingerprint(serial) == ResultDigest.fingerprint(result)

            add({"stage" => "differs", "kind" => "differs", "index" => index, "serial" => RactorCheck.preview(serial),
                 "ractor" => RactorCheck.preview(result)})
          end
          @problems.delete_if { |_, p| p["kind"] == "raised" && serial_result(@items[p["index"]]) == :raised }
        end

        def serial_result(item)
          @target.work(item)
        rescue Exception # rubocop:disable Lint/RescueException -- any failure: the serial check will say what
          :raised
        end

        def now = Process.clock_gettime(Process::CLOCK_MONOTONIC)
      end
    end
  end
end
