# frozen_string_literal: true

require "rbconfig"

module Ractorbench
  module Harness
    module Try
      # What the check and the runs use of Ruby and of ractorbench itself,
      # taken when the harness loads, before the user's file does: a file
      # that overrides `self.name`, Module#name or Marshal.dump, or reopens
      # one of ractorbench's own modules, changes neither how its module is
      # named nor what is checked and measured around it.
      module OwnCode
        MODULE_NAME = Module.instance_method(:name)
        METHODS = Module.instance_method(:instance_methods)
        PRIVATE_METHODS = Module.instance_method(:private_instance_methods)
        INSTANCE_METHOD = Module.instance_method(:instance_method)
        CONSTANTS = Module.instance_method(:constants)
        CONST_GET = Module.instance_method(:const_get)
        SINGLETON = Kernel.instance_method(:singleton_class)
        # ractorbench's own files (harness/ and lib/ under its root) and
        # Ruby's libraries and gems.
        LIBRARIES = [File.expand_path("../..", __dir__), *RbConfig::CONFIG.values_at("rubylibprefix", "rubyarchdir"),
          *(Gem.path if defined?(Gem))].compact.uniq.map { |dir| File.join(File.expand_path(dir), "") }.freeze
        DUMP = Marshal.method(:dump)
        LOAD = Marshal.method(:load)

        module_function

        # The constant path the module was defined under, whatever its
        # `name` or `to_s` now say.
        def name_of(mod) = MODULE_NAME.bind_call(mod)

        def dump(value) = DUMP.call(value)

        def load(data) = LOAD.call(data) # rubocop:disable Security/MarshalLoad -- written by this check's own fork

        # Every method of ractorbench's own modules (and their singletons),
        # each with its definition: compared after the user's file loads.
        def snapshot(root = Ractorbench, seen = {}, into = {})
          return into if seen[root]

          seen[root] = true
          [[root, "#{name_of(root)}#"], [SINGLETON.bind_call(root), "#{name_of(root)}."]].each do |mod, prefix|
            (METHODS.bind_call(mod, false) + PRIVATE_METHODS.bind_call(mod, false)).each do |m|
              into["#{prefix}#{m}"] = INSTANCE_METHOD.bind_call(mod, m)
            end
          end
          CONSTANTS.bind_call(root, false).each do |c|
            value = CONST_GET.bind_call(root, c, false)
            snapshot(value, seen, into) if value.is_a?(Module) && name_of(value)&.start_with?("Ractorbench::")
          rescue NameError, LoadError
            next
          end
          into
        end

        # The methods in ractorbench's modules that the code loaded since
        # `before` redefined, or defined from outside ractorbench's own files
        # and Ruby's libraries (a file may require ractorbench itself, whose
        # Forwardable methods are defined in forwardable.rb), by name.
        def changed(before)
          snapshot.reject { |name, method| before[name] == method || (!before.key?(name) && library?(method)) }
        end

        def library?(method)
          file, = method.source_location
          file.nil? || LIBRARIES.any? { |dir| File.expand_path(file).start_with?(dir) }
        end
      end
    end
  end
end
