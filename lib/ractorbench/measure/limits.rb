# frozen_string_literal: true

module Ractorbench
  module Measure
    # Resource limits for a measured child. Workloads like spawn and ring
    # start thousands of threads, processes or pipes; the soft limits on
    # processes (which count threads) and open files may be raised to the hard
    # ones by anyone, so each child gets them raised. What still refuses is
    # named in the run's failure (Harness::ResourceLimits).
    module Limits
      RAISED = %i[NPROC NOFILE].freeze

      module_function

      # Process.spawn options, e.g. {rlimit_nproc: [hard, hard]}.
      def spawn_options
        RAISED.each_with_object({}) do |resource, options|
          next unless Process.const_defined?("RLIMIT_#{resource}")

          soft, hard = Process.getrlimit(resource)
          options[:"rlimit_#{resource.downcase}"] = [hard, hard] if soft != hard
        end
      end
    end
  end
end
