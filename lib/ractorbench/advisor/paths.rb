# frozen_string_literal: true

module Ractorbench
  module Advisor
    # Shows paths the way the user typed them: relative to the current
    # directory when the file is under it.
    module Paths
      module_function

      def short(text)
        return nil if text.nil?

        text.gsub(File.join(Dir.pwd, ""), "")
      end
    end
  end
end
