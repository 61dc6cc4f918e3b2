# frozen_string_literal: true

require "rbconfig"

module Ractorbench
  module Harness
    module Try
      # Finds the user's own code in a backtrace: the frame a person should
      # open, not Ruby's library, an installed gem or ractorbench's harness.
      module UserCode
        Frame = Struct.new(:path, :line, :label) do
          def to_s = "#{path}:#{line}"
        end

        FRAME = /\A(?<path>.+?):(?<line>\d+)(?::in [`'](?<label>.*)')?/
        # ractorbench's example workloads (`try --example NAME`): a user runs
        # them as their own file, so they are user code even where an
        # installed gem puts them, under a gem directory below.
        EXAMPLES_DIR = File.expand_path("../../examples", __dir__).freeze
        # Frozen all the way down, so that code inside a ractor may read it.
        NOT_USER = [File.expand_path("..", __dir__),
          *RbConfig::CONFIG.values_at("rubylibdir", "rubyarchdir", "vendordir", "sitedir"),
          *(defined?(Gem) ? Gem.path : [])].compact.map { |dir| File.join(File.expand_path(dir), "").freeze }.freeze

        module_function

        def frames(backtrace)
          Array(backtrace).filter_map do |text|
            m = FRAME.match(text)
            Frame.new(m[:path], m[:line].to_i, m[:label]) if m
          end
        end

        # The deepest frame in user code (the user's file or a file of theirs
        # it loads), else nil.
        def frame(backtrace, file = nil)
          list = frames(backtrace)
          list.find { |f| user?(f.path) } || (file && list.find { |f| same_file?(f.path, file) })
        end

        # The first frame in the user's file itself: where their work calls
        # into the code that failed.
        def frame_in(backtrace, file)
          frames(backtrace).find { |f| same_file?(f.path, file) }
        end

        def user?(path)
          return false if path.start_with?("<internal:", "<")

          full = File.expand_path(path)
          full.start_with?(File.join(EXAMPLES_DIR, "")) || NOT_USER.none? { |dir| full.start_with?(dir) }
        end

        # The method a frame is in, as Ruby 3.4 and later label it, with its
        # owner ("ObjectSpace.memsize_of"). Ruby 3.1 labels only the method
        # ("memsize_of"): the owner is then the constant the frame's line
        # calls it on (a C method's frame is its caller's line), when it is
        # called on one; `initialize` is called as `new`.
        def method_name(frame)
          name = frame&.label
          return name if name.nil? || name.match?(/[#.\s]/)

          called = (name == "initialize") ? "new" : name
          receiver = source_line(frame.path, frame.line).to_s[/([A-Z]\w*(?:::[A-Z]\w*)*)\s*\.\s*#{Regexp.escape(called)}(?![\w?!=])/, 1]
          return name unless receiver

          "#{receiver}#{(called == name) ? "." : "#"}#{name}"
        end

        def same_file?(path, file)
          File.expand_path(path) == File.expand_path(file)
        end

        def source_line(path, line)
          File.foreach(path).with_index(1) { |text, i| return text.strip if i == line }
          nil
        rescue SystemCallError, IOError
          nil
        end
      end
    end
  end
end
