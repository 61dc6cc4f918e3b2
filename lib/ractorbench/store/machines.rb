# frozen_string_literal: true

require_relative "../base/printable"
require_relative "header"

module Ractorbench
  module Store
    # The machines of a results file. A collection has one (its header's);
    # a file `ractorbench merge` wrote keeps every collection's header under
    # "merged" and names each run's machine in its "machine" field, so
    # `report --by machine` and `compare --by machine` can set machines side
    # by side, each with its own cores and Rubies.
    module Machines
      # One machine of a file: its name, the header that describes it (its
      # own machine, Rubies, ...), and its runs.
      Machine = Struct.new(:name, :header, :runs, keyword_init: true)

      module_function

      # A short name for a machine: its host name, else its CPU.
      def base_name(header)
        m = header.machine
        Printable.name(m.hostname || m.cpu_model || "machine")
      end

      # Names for headers (Header) of distinct machines, unique: "vm", "vm-2".
      # headers: one per machine, in order.
      def names(headers)
        seen = Hash.new(0)
        headers.map do |h|
          base = base_name(h)
          seen[base] += 1
          (seen[base] == 1) ? base : "#{base}-#{seen[base]}"
        end
      end

      # The machines of Contents, in the header's order: for a merged file,
      # one per machine it names; for any other, the file's own.
      def of(contents)
        header = contents.header
        sources = header.merged.sources
        return [Machine.new(name: base_name(header), header: header, runs: contents.runs)] if sources.empty?

        by_name = contents.runs.group_by(&:machine)
        sources.group_by(&:machine_name).map do |name, of_machine|
          Machine.new(name: Printable.name(name.to_s), header: machine_header(header, of_machine), runs: by_name.fetch(name, []))
        end
      end

      # A machine's header: its first collection's, with the Rubies of all
      # its collections and the merged file's plan.
      def machine_header(merged, sources)
        rubies = sources.flat_map { |s| s.header.rubies }.uniq(&:name)
        Header.new((sources.first.header.as_json || {}).merge("rubies" => rubies.map(&:as_json), "plan" => merged.plan))
      end

      def several?(contents) = contents.header.merged.sources.map(&:machine_name).uniq.size > 1
    end
  end
end
