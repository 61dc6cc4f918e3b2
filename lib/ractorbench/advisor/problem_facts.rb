# frozen_string_literal: true

require_relative "facts"

module Ractorbench
  module Advisor
    # The exception behind a problem, as the check described it.
    ErrorFacts = Facts.value(:message, :backtrace, :receiver_id, :class_name, keys: Facts::CLASS_NAME)

    # A constant a ractor could not read (harness/try/constant_owner.rb).
    ConstantFacts = Facts.value(:name, :owner, :constant, :expression, :private, :defined_at, :library, :gem, :frozen,
      :shareable, :class_name, keys: Facts::CLASS_NAME)

    # Code work loaded on first use (harness/try/lazy_load.rb).
    LazyFacts = Facts.value(:autoload, :loader, :require, :require_relative, :candidates)

    # What the check loaded at load time in its place.
    LoadRemedy = Facts.value(:kind, :feature, :relative, :constants)

    # The candidate the static pass matched to a problem (RactorRounds).
    CandidateFacts = Facts.value(:kind, :name, :owner, :defined_at)

    # An instance variable the failing line names.
    IvarFacts = Facts.value(:name, :owner, :shareable, :class_name, keys: Facts::CLASS_NAME)

    # Where work changed a constant the check had made shareable.
    ChangeFacts = Facts.value(:where, :source)

    # One problem the check met running work inside a ractor or in threads
    # (harness/try/ractor_pass.rb, threads_pass.rb, first_touch.rb), with
    # what the rounds added: the candidate, and whether its fix is
    # mechanical or left to do by hand. remedy: "make_shareable", or what
    # was loaded (LoadRemedy).
    ProblemFacts = Facts.value(:stage, :kind, :key, :index, :items, :where, :source, :work_location, :work_source,
      :raised_in, :library, :gem, :called_from, :unsafe_method, :path, :named, :of, :serial, :ractor, :in_threads,
      :threads, :how, :remedy, :shareable_error, :changed_by_work, :candidate, :mechanical, :manual, :ivars, :lazy,
      :constant, :error, :class_name, keys: Facts::CLASS_NAME,
      kinds: {error: ErrorFacts, constant: ConstantFacts, lazy: LazyFacts, remedy: LoadRemedy, candidate: CandidateFacts,
              ivars: IvarFacts, changed_by_work: ChangeFacts})
  end
end
