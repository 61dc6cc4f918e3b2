# frozen_string_literal: true

module Ractorbench
  module Harness
    # A static split of jobs among workers: consecutive runs whose sizes
    # differ by at most one, so no worker is left without a job while
    # another has two (ceil-sized slices would give 5 jobs to 4 workers as
    # 2, 2, 1, 0).
    module Shares
      module_function

      def split(jobs, workers)
        base, extra = jobs.size.divmod(workers)
        start = 0
        Array.new(workers) do |i|
          size = base + ((i < extra) ? 1 : 0)
          share = jobs[start, size]
          start += size
          share
        end
      end
    end
  end
end
