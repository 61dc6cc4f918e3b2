# frozen_string_literal: true

require_relative "../../analysis/vm_serialisation"

module Ractorbench
  module Reports
    module Parts
      # The header's ractor-scaling probe in words, for each Ruby whose VM
      # serialises ractors (the probe's W ractors cost far more CPU per
      # iteration than one).
      module VmNotes
        module_function

        def lines(header)
          Analysis::VmSerialisation.for(header).map { |f| "VM SERIALISATION: #{Analysis::VmSerialisation.sentence(f)}" } +
            Analysis::VmSerialisation.inconclusive(header).map { |text| "RACTOR-SCALING PROBE INCONCLUSIVE: #{text}" }
        end
      end
    end
  end
end
