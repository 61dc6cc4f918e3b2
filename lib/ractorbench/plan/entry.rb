# frozen_string_literal: true

module Ractorbench
  module Plan
    # One workload with the models and (workers, messages) pairs to run it at.
    Entry = Struct.new(:workload, :models, :configs, :params, keyword_init: true)
  end
end
