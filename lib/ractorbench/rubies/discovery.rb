# frozen_string_literal: true

require_relative "probe"
require_relative "target"

module Ractorbench
  module Rubies
    # Every Ruby on this machine where Ruby developers keep them: on PATH and
    # in the folders of rbenv, asdf, chruby, mise and rvm (each moved by the
    # environment variable its users set), each probed once, the same
    # executable found twice listed once. mruby counts: seed 001 measured it
    # beside Ruby, and its probe (ChildPrograms) says what it has.
    class Discovery
      # An executable named like a Ruby: ruby, ruby3.1, ruby-3.4, jruby, truffleruby, mruby.
      EXECUTABLE = /\A(?:ruby(?:[-.]?\d[\d.]*)?|jruby|truffleruby|mruby)\z/
      # What a version manager's install holds in bin/.
      BIN_NAMES = %w[ruby jruby truffleruby mruby].freeze

      # A Ruby found: where, by which manager, and what its probe said
      # (info: the probe's answer, nil when the probe failed).
      Found = Struct.new(:path, :source, :info, :problem, keyword_init: true) do
        def probe = Probe.new(info)
        def version = probe.version
        def engine = probe.engine || "ruby"
        def features = probe.features
        def name = "#{engine}-#{version}"
        def ok? = !info.nil?

        # "4.0" matches 4.0.0 and "3" every 3.x; "ruby-3.4.0" or "ruby-3.4"
        # the name; "jruby" the engine.
        # A version is CRuby's: JRuby and TruffleRuby report the version of
        # Ruby they are compatible with.
        def matches?(selector)
          versions = (engine == "ruby") ? [version, name] : [name]
          versions.compact.any? { |v| v == selector || v.start_with?("#{selector}.") } || engine == selector
        end

        # The Ruby a shim or a link starts, as that Ruby says.
        def identity
          executable = probe.executable
          return path unless executable

          [(File.realpath(executable) rescue executable), engine, probe.description] # rubocop:disable Style/RescueModifier
        end
      end

      def initialize(env: ENV, home: Dir.home)
        @env = env
        @home = home
      end

      # [source, folder that holds one folder per installed Ruby], in the
      # order they are searched.
      def managers
        data_home = @env["XDG_DATA_HOME"] || File.join(@home, ".local", "share")
        [
          ["rbenv", File.join(@env["RBENV_ROOT"] || File.join(@home, ".rbenv"), "versions")],
          ["asdf", File.join(@env["ASDF_DATA_DIR"] || File.join(@home, ".asdf"), "installs", "ruby")],
          ["chruby", "/opt/rubies"],
          ["chruby", File.join(@home, ".rubies")],
          ["mise", File.join(@env["MISE_DATA_DIR"] || File.join(data_home, "mise"), "installs", "ruby")],
          ["rvm", File.join(@env["rvm_path"] || File.join(@home, ".rvm"), "rubies")]
        ]
      end

      # [[path, source]] of every Ruby-like executable, before probing.
      def candidates
        on_path = @env.fetch("PATH", "").split(File::PATH_SEPARATOR).uniq.flat_map do |dir|
          (Dir.children(dir) rescue []).grep(EXECUTABLE).sort.map { |exe| [File.join(dir, exe), "PATH"] } # rubocop:disable Style/RescueModifier
        end
        roots = managers.flat_map { |source, folder| Dir.glob(File.join(folder, "*")).sort.map { |root| [root, source] } }
        # chruby's RUBIES, where exported: the roots of further Rubies.
        roots += @env["RUBIES"].to_s.split(/[\s:]+/).reject(&:empty?).map { |root| [root, "chruby"] }
        installed = roots.flat_map do |root, source|
          BIN_NAMES.map { |exe| [File.join(root, "bin", exe), source] }
        end
        unique((installed + on_path).select { |path, _| File.file?(path) && File.executable?(path) })
      end

      # Every Ruby found, probed (in parallel: each probe is a child
      # process); a shim that starts a Ruby already listed is left out.
      def call
        found = candidates.map do |path, source|
          Thread.new do
            Found.new(path: path, source: source, info: Target.new(name: path, argv: [path]).probe!.info)
          rescue UsageError => e
            Found.new(path: path, source: source, problem: e.message.sub(/\A--ruby [^:]*: /, ""))
          end
        end.map(&:value)
        found.uniq(&:identity)
      end

      private

      # One entry per real executable (a manager's shim or a link to a Ruby
      # already listed is the same Ruby), the first place it was found kept.
      def unique(found)
        found.uniq { |path, _| File.realpath(path) }
      end
    end
  end
end
