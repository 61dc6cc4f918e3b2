# frozen_string_literal: true

require "shellwords"
require_relative "../base/errors"
require_relative "discovery"
require_relative "target"

module Ractorbench
  module Rubies
    # What `--ruby TEXT` and `--rubies LIST` name. NAME=COMMAND and a command
    # (a path, or a name on PATH such as `ruby` or `ruby --yjit`) stay what they
    # always were; anything else picks among the Rubies discovery finds: a
    # version prefix (`4.0`), a name (`ruby-3.4.0`) or an engine (`jruby`),
    # the newest when several match. Discovery runs only when a selector needs it.
    class Selection
      def initialize(discovery: Discovery.new, path: ENV.fetch("PATH", ""))
        @discovery = discovery
        @path = path.split(File::PATH_SEPARATOR)
      end

      # --ruby TEXT: one Target. A selector may carry flags: `4.0 --yjit`.
      def one(text)
        return Target.parse(text) if text.include?("=") || command?(text)

        selector, *flags = Shellwords.split(text)
        found_ruby = pick(selector, "--ruby")
        Target.new(name: [name_of(found_ruby), *flags].join(" "), argv: [found_ruby.path, *flags])
      end

      # --rubies all, or a comma-separated list of what --ruby takes.
      def many(text)
        selectors = text.split(",").map(&:strip).reject(&:empty?)
        raise UsageError, "--rubies: give all, or a list such as 3.4,4.0" if selectors.empty?
        return found.map { |f| Target.new(name: name_of(f), argv: [f.path]) }.tap { |all| nothing_found!("--rubies all") if all.empty? } if selectors == ["all"]

        selectors.map { |selector| one(selector) }
      end

      # Every Ruby discovery found that answered its probe.
      def found = @found ||= @discovery.call.select(&:ok?)

      private

      def command?(text)
        first = Shellwords.split(text).first.to_s
        first.include?("/") || @path.any? { |dir| File.executable?(File.join(dir, first)) && !File.directory?(File.join(dir, first)) }
      rescue ArgumentError
        true # unbalanced quotes: Target.parse says so
      end

      def pick(selector, option)
        matches = found.select { |f| f.matches?(selector) }
        nothing_found!("#{option} #{selector}") if matches.empty?

        matches.max_by { |f| Gem::Version.correct?(f.version) ? Gem::Version.new(f.version) : Gem::Version.new("0") }
      end

      # A name that says which Ruby; where two found share engine and
      # version, where each was found too.
      def name_of(found_ruby)
        twins = found.count { |f| f.name == found_ruby.name }
        (twins > 1) ? "#{found_ruby.name}@#{found_ruby.source}" : found_ruby.name
      end

      def nothing_found!(what)
        listing = found.empty? ? "none" : found.map { |f| "#{f.name} (#{f.source})" }.join(", ")
        raise UsageError, "#{what}: no such Ruby found; found: #{listing}; give a version (4.0), a name (ruby-3.4.0), " \
          "NAME=COMMAND, or see `ractorbench rubies`"
      end
    end
  end
end
