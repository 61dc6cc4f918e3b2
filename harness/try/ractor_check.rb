# frozen_string_literal: true

require_relative "../ractorbench/harness"
require_relative "object_path"
require_relative "result_digest"
require_relative "user_code"
require_relative "own_code"
require_relative "constant_owner"

module Ractorbench
  module Harness
    module Try
      # The two halves of running the user's work inside a real ractor: the
      # loop that runs in the worker ractor (`serve`), and what only the main
      # ractor can add to a failure (the user's frame and its source line,
      # the instance variables the line names).
      module RactorCheck
        # `Receiver.name(args)` in the check's own copy becomes
        # `MainCall.new(Receiver, :name).call(args)` (see main_call).
        MainCall = Struct.new(:receiver, :name) do
          def call(*args) = RactorCheck.main_call(receiver, name, *args)
        end

        module_function

        # Inside the ractor: work each item and send back the result, or what
        # stopped it. A result that cannot be copied out is a problem too.
        # The work runs on the ractor's only thread, as in the ractors model
        # (Ruby 3.4 hangs a ractor with a second thread when its first loads
        # code on first use).
        def serve(out, mod)
          Ractor.current[:ractorbench_out] = out
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

        # The check's own copy calls a C method that only the main ractor may
        # call through this, so that the check goes on past it: the main
        # ractor makes the call and sends back its value.
        def main_call(receiver, name, *args)
          return receiver.public_send(name, *args) if Ractor.current == Ractor.main

          Ractor.current[:ractorbench_out].send([:call, nil, [receiver, name, args]])
          tag, value = Ractor.receive
          (tag == :raised) ? raise(value) : value
        end

        # error: an exception, or the facts of one raised in the worker.
        def travel_problem(what, index, object, error)
          facts = error.is_a?(Hash) ? error : exception_facts(error)
          klass = facts["message"][/(?:allocator undefined for|can not copy|cannot copy)\s+(?:an? )?([A-Z][\w:]*)/, 1]
          found = klass && ObjectPath.find(object, what) { |o| o.class.name.to_s == klass }
          {"stage" => what, "kind" => what, "index" => index, "error" => facts, "class" => klass, "path" => found&.last}
        end

        # The receiver of a FrozenError, when it is shareable, travels by
        # reference: its object id tells which frozen constant work changed.
        def exception_facts(error)
          facts = {"class" => ErrorText.class_name(error), "message" => ErrorText.text(error), "backtrace" => ErrorText.backtrace(error, 30)}
          if error.is_a?(FrozenError) && error.respond_to?(:receiver)
            receiver = begin
              error.receiver
            rescue ArgumentError
              nil
            end
            facts["receiver_id"] = receiver.object_id if receiver && Ractor.shareable?(receiver)
          end
          facts
        end

        def preview(object)
          text = object.inspect
          (text.size > 80) ? "#{text[0, 77]}..." : text
        end

        # What the main ractor can add about the failure: the user's frame
        # and its source line, and the instance variables the line names.
        def facts(error, target, file)
          frame = UserCode.frame(error["backtrace"], file)
          caller_frame = UserCode.frame_in(error["backtrace"], file)
          work_file, work_line = target.method(:work).source_location
          source = frame && UserCode.source_line(frame.path, frame.line)
          top = UserCode.frames(error["backtrace"]).first
          {
            "where" => frame&.to_s, "source" => source,
            "raised_in" => (top.to_s if top && !UserCode.user?(top.path)),
            "library" => (ConstantOwner.library(top.path) if library_frame?(top)),
            "gem" => (ConstantOwner.gem_version(top.path) if library_frame?(top)),
            "called_from" => (caller_frame.to_s if caller_frame && caller_frame.to_s != frame.to_s),
            "unsafe_method" => (UserCode.method_name(top) if error["class"] == "Ractor::UnsafeError"),
            "work_location" => work_file && "#{work_file}:#{work_line}",
            "work_source" => work_file && UserCode.source_line(work_file, work_line),
            "ivars" => ivar_facts(target, source)
          }.compact
        end

        # A frame of a library's code: not the user's, nor ractorbench's own
        # (which only called work).
        def library_frame?(frame)
          frame && !UserCode.user?(frame.path) && !File.expand_path(frame.path).start_with?(UserCode::NOT_USER.first)
        end

        # The instance variables of the user's module that the failing line
        # mentions, with what they hold.
        def ivar_facts(target, source)
          names = source.to_s.scan(/(?<![@\w])@\w+/).uniq
          facts = names.map do |name|
            # Not set yet when work sets it on first use.
            next {"name" => name, "owner" => OwnCode.name_of(target)} unless target.instance_variable_defined?(name)

            value = target.instance_variable_get(name)
            {"name" => name, "owner" => target.name, "class" => value.class.name, "shareable" => Ractor.shareable?(value)}
          end
          facts.empty? ? nil : facts
        end
      end
    end
  end
end
