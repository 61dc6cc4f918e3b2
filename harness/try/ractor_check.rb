# frozen_string_literal: true

require_relative "../ractorbench/harness"
require_relative "object_path"
require_relative "result_digest"
require_relative "user_code"

module Ractorbench
  module Harness
    module Try
      # Runs the user's work on a few items inside a real ractor, the way the
      # ractors model will, and brings back the facts of what went wrong:
      # the exception and its backtrace from inside the ractor, plus what
      # only the main ractor can look up (the constant or instance variable
      # named, the offending line of source).
      module RactorCheck
        module_function

        # nil when the ractor computed what the main ractor did; else facts.
        def call(target, items, serial_results, file)
          channel = RactorCompat.new_channel
          worker = Ractor.new(channel, target, name: "ractorbench-try-check") { |out, mod| RactorCheck.serve(out, mod) }
          problem = nil
          items.each_with_index do |item, index|
            problem = exchange(worker, channel, item, index, serial_results[index])
            break if problem
          end
          worker.send(nil)
          RactorCompat.value(worker)
          problem&.merge(facts(problem, target, file))
        rescue Ractor::RemoteError => e
          error = exception_facts(e.cause || e)
          {"stage" => "work", "error" => error}.merge(facts({"error" => error}, target, file))
        end

        # Inside the ractor: work each item and send back the result, or what
        # stopped it. A result that cannot be copied out is a problem too.
        def serve(out, mod)
          while (job = Ractor.receive)
            index, item = job
            reply = begin
              [:ok, index, mod.work(item)]
            rescue Exception => e # rubocop:disable Lint/RescueException -- report every way the work fails
              [:raised, index, exception_facts(e)]
            end
            begin
              out.send(reply)
            rescue Exception => e # rubocop:disable Lint/RescueException -- the reply itself may be what fails
              out.send([:unsendable, index, exception_facts(e)])
            end
          end
          :done
        end

        def exchange(worker, channel, item, index, expected)
          begin
            worker.send([index, item])
          rescue Exception => e # rubocop:disable Lint/RescueException -- an item that cannot be copied in
            return travel_problem("item", index, item, e)
          end
          tag, _, payload = RactorCompat.receive(channel)
          case tag
          when :raised then {"stage" => "work", "index" => index, "error" => payload}
          when :unsendable then travel_problem("result", index, expected, payload)
          else differs(index, expected, payload)
          end
        end

        def differs(index, expected, actual)
          return nil if ResultDigest.fingerprint(expected) == ResultDigest.fingerprint(actual)

          {"stage" => "differs", "index" => index, "serial" => preview(expected), "ractor" => preview(actual)}
        end

        # error: an exception, or the facts of one raised in the worker.
        def travel_problem(what, index, object, error)
          facts = error.is_a?(Hash) ? error : exception_facts(error)
          klass = facts["message"][/(?:allocator undefined for|can not copy|cannot copy)\s+(?:an? )?([A-Z][\w:]*)/, 1]
          found = klass && ObjectPath.find(object, what) { |o| o.class.name.to_s == klass }
          {"stage" => what, "index" => index, "error" => facts, "class" => klass, "path" => found&.last}
        end

        def exception_facts(error)
          {"class" => error.class.name, "message" => error.message.to_s, "backtrace" => Array(error.backtrace).first(30)}
        end

        def preview(object)
          text = object.inspect
          (text.size > 80) ? "#{text[0, 77]}..." : text
        end

        # What the main ractor can add about the failure: the user's frame
        # and its source line, and the object the error names.
        def facts(problem, target, file)
          error = problem["error"] || {}
          frame = UserCode.frame(error["backtrace"], file)
          caller_frame = UserCode.frame_in(error["backtrace"], file)
          work_file, work_line = target.method(:work).source_location
          {
            "where" => frame&.to_s, "source" => frame && UserCode.source_line(frame.path, frame.line),
            "called_from" => (caller_frame.to_s if caller_frame && caller_frame.to_s != frame.to_s),
            "work_location" => work_file && "#{work_file}:#{work_line}",
            "work_source" => work_file && UserCode.source_line(work_file, work_line),
            "constant" => constant_facts(error["message"].to_s),
            "ivars" => ivar_facts(target, frame && UserCode.source_line(frame.path, frame.line))
          }.compact
        end

        def constant_facts(message)
          name = message[/constant ([A-Z][\w:]*)/, 1]
          return nil unless name

          value = Object.const_get(name)
          {"name" => name, "class" => value.class.name, "frozen" => value.frozen?, "shareable" => Ractor.shareable?(value)}
        rescue NameError
          {"name" => name}
        end

        # The instance variables of the user's module that the failing line
        # mentions, with what they hold.
        def ivar_facts(target, source)
          names = source.to_s.scan(/(?<![@\w])@\w+/).uniq
          facts = names.filter_map do |name|
            next unless target.instance_variable_defined?(name)

            value = target.instance_variable_get(name)
            {"name" => name, "owner" => target.name, "class" => value.class.name, "shareable" => Ractor.shareable?(value)}
          end
          facts.empty? ? nil : facts
        end
      end
    end
  end
end
