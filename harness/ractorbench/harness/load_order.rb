# frozen_string_literal: true

module Ractorbench
  module Harness
    # Ruby searches RUBYLIB's folders before its own libraries: a json.rb or
    # digest.rb there would be what ractorbench's `require "json"` loads, and
    # would write its results. ractorbench (the driver, and the harness in
    # every child) takes Ruby's own libraries first: RUBYLIB's folders move
    # after them, still searched for anything Ruby does not have.
    module LoadOrder
      module_function

      def own_libraries_first!(env = ENV)
        given = env["RUBYLIB"].to_s.split(File::PATH_SEPARATOR).reject(&:empty?).map { |d| File.expand_path(d) }
        return if given.empty?

        moved = $LOAD_PATH.select { |dir| given.include?(File.expand_path(dir.to_s)) }
        $LOAD_PATH.replace($LOAD_PATH - moved + moved)
      end
    end
  end
end
