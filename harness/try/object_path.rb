# frozen_string_literal: true

module Ractorbench
  module Harness
    module Try
      # Where inside an item or a result the object that cannot travel sits,
      # e.g. `result[1][:callback]`, so the user knows what to change.
      module ObjectPath
        LIMIT = 10_000

        module_function

        # [object, path] of the first object (depth first) for which the
        # block is true, or nil. Looks at no more than limit objects.
        def find(root, label, limit: LIMIT)
          seen = {}
          stack = [[root, label]]
          until stack.empty? || seen.size > limit
            object, path = stack.pop
            next if seen.key?(object.__id__)

            seen[object.__id__] = true
            return [object, path] if yield(object)

            stack.concat(children(object, path).reverse)
          end
          nil
        end

        # [object, path] of the innermost object that fails the block while
        # every object inside it passes: the one to blame when a container
        # fails only because of what it holds.
        def innermost(root, label, seen = {}, &fails)
          return nil if seen.key?(root.__id__) || seen.size > LIMIT || !fails.call(root)

          seen[root.__id__] = true
          children(root, label).each do |child, path|
            found = innermost(child, path, seen, &fails)
            return found if found
          end
          [root, label]
        end

        def children(object, path)
          case object
          when Array then object.each_with_index.map { |v, i| [v, "#{path}[#{i}]"] }
          when Hash then object.flat_map { |k, v| [[k, "#{path}.keys[#{k.inspect}]"], [v, "#{path}[#{k.inspect}]"]] }
          when Struct then object.each_pair.map { |k, v| [v, "#{path}.#{k}"] }
          else object.instance_variables.map { |iv| [object.instance_variable_get(iv), "#{path}.#{iv}"] }
          end
        rescue
          []
        end
      end
    end
  end
end
