# frozen_string_literal: true

module Ractorbench
  module Plan
    # The seed's three tables of "Performance of Concurrently" (seed 001, the
    # cost of concurrency itself): the suite plans a run of each subject, the
    # analysis shows them in these tables, in this order.
    module Plan::ConcurrentlyTables
      WORKLOAD = "ops-per-second"

      # One of the seed's tables: the subjects it shows, in its order.
      Table = Struct.new(:name, :title, :subjects, keyword_init: true)

      ALL = [
        Table.new(name: "call_methods", title: "Call methods: mere invocation of concurrent procs",
          subjects: %w[proc-call fiber-resume conproc-call conproc-call-nonblock conproc-call-detached
            conproc-call-and-forget thread-join ractor-value fork-wait]),
        Table.new(name: "wait_methods", title: "Wait methods: mere waiting",
          subjects: %w[wait await-readable await-writable]),
        Table.new(name: "call_methods_waiting", title: "Call methods waiting: waiting inside concurrent procs",
          subjects: %w[conproc-call conproc-call-nonblock conproc-call-detached-await conproc-call-and-forget
            waiting-call waiting-call-nonblock waiting-call-detached waiting-call-and-forget])
      ].freeze
    end
  end
end
