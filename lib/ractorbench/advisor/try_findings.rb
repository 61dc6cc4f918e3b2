# frozen_string_literal: true

require_relative "facts"
require_relative "check_record"

module Ractorbench
  module Advisor
    # What a try's results file keeps of the check in its header ("try"):
    # the file and the digest of the bytes checked (and so measured), the
    # module, the items a run does, the check's record, the models left out
    # and why, and each model's pattern.
    TryFindings = Facts.value(:file, :file_digest, :module_name, :items, :preflight, :excluded, :patterns,
      keys: {module_name: "module"}, kinds: {preflight: CheckRecord})
  end
end
