# frozen_string_literal: true

require_relative "object_path"

module Ractorbench
  module Harness
    module Try
      # Forked workers send their results back with Marshal; an object
      # Marshal refuses (a Proc, an IO, a Mutex, a Hash with a default proc,
      # an anonymous class) stops them. Items never travel: the workers are
      # forked holding them. Finds the first refused result and where it sits.
      module MarshalCheck
        module_function

        # nil when every result can travel, else the facts of the first refusal.
        def call(results)
          results.each_with_index do |result, i|
            problem = check(result, "result", i)
            return problem if problem
          end
          nil
        end

        def check(object, what, index)
          Marshal.dump(object)
          nil
        rescue TypeError => e
          culprit, path = ObjectPath.innermost(object, what) { |o| refused?(o) }
          {"what" => what, "index" => index, "message" => e.message, "path" => path,
           "class" => class_name(culprit || object)}
        end

        def refused?(object)
          Marshal.dump(object)
          false
        rescue TypeError
          true
        end

        def class_name(object)
          object.class.name || object.class.inspect
        end
      end
    end
  end
end
