# frozen_string_literal: true

require_relative "../base/errors"
require_relative "../../../harness/try/user_code"

module Ractorbench
  module Advisor
    # The example workloads that ship with ractorbench (examples/*.rb), so
    # that `ractorbench try --example json_parse` works wherever the gem is
    # installed, not only in a checkout.
    module Examples
      # The harness counts these files as the user's own code.
      DIR = Harness::Try::UserCode::EXAMPLES_DIR

      module_function

      # {"json_parse" => "/.../examples/json_parse.rb", ...}
      def all = Dir[File.join(DIR, "*.rb")].sort.to_h { |f| [File.basename(f, ".rb"), f] }

      def path(name)
        all.fetch(name.to_s.delete_suffix(".rb")) do
          raise UsageError, "no example #{name.inspect}; the examples: #{all.keys.join(", ")} (in #{DIR})"
        end
      end

      # The first comment line of an example: what it does.
      def description(file)
        File.foreach(file).map(&:strip).find { |l| l.start_with?("# ") && !l.include?("frozen_string_literal") }.to_s.delete_prefix("# ").split(":").first
      end
    end
  end
end
