# frozen_string_literal: true

# What every program ractorbench starts does before anything else (the
# driver's command, a measured run, the probes, try's check): its text is
# UTF-8 whatever the locale, and Ruby's own libraries come before RUBYLIB's
# folders. A library only requiring ractorbench (the Ruby API) keeps its
# process as it was.
require_relative "text_encoding"
require_relative "load_order"

Ractorbench::Harness::TextEncoding.utf8!
Ractorbench::Harness::LoadOrder.own_libraries_first!
