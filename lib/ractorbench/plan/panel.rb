# frozen_string_literal: true

module Ractorbench
  module Plan
    # What every verdict compares: all models of one workload with its
    # parameters, at one size (workers, messages), on one Ruby. params: the
    # parameters' label text (Configuration.params_label), nil without any.
    # One value with one order, so no report rebuilds it as a tuple. Loaded
    # by configuration.rb, whose label builders it uses.
    Panel = Struct.new(:workload, :params, :workers, :messages, :ruby, keyword_init: true) do
      # The order panels are shown in: workload, parameters, workers,
      # messages, Ruby.
      def sort_key = [workload, params.to_s, workers.to_i, messages.to_i, ruby.to_s]

      # "fib/w2/m4/n=12/ruby": the configurations' label without a model and
      # without internal parameters (Configuration.shown_label).
      def label = Configuration.shown_label(workload: workload, workers: workers, messages: messages, params: params, ruby: ruby)

      def title = Configuration.title(workload, params)

      # The same panel on every Ruby (`report --by ruby` sets Rubies side by side).
      def without_ruby = self.class.new(**to_h, ruby: nil)
    end
  end
end
