# frozen_string_literal: true

module Ractorbench
  module Harness
    module RubyBench
      # Where things are in a ruby-bench checkout, by ruby-bench's own
      # conventions (its BenchmarkDiscovery): benchmarks.yml lists the
      # benchmarks; one is benchmarks/NAME.rb, benchmarks/NAME/benchmark.rb, or
      # benchmarks/DIR/FILE.rb named DIR-FILE when DIR has no benchmark.rb;
      # harness/loader.rb picks the harness with `require "harness"`, so the
      # harness first on the load path is the one that runs. Read by the
      # driver (to plan and list) and by the child (to load a benchmark).
      module Layout
        CONFIG = "benchmarks.yml"
        LOADER = File.join("harness", "loader.rb")
        BENCHMARKS = "benchmarks"
        # A benchmark's name becomes a path: nothing that could leave the folder.
        NAME = /\A[A-Za-z0-9_][A-Za-z0-9_.+-]*\z/
        # The first line of a file Git LFS has not fetched.
        LFS_POINTER = "version https://git-lfs.github.com/spec/v1"

        module_function

        # The benchmark's script, relative to the checkout, or nil.
        def script(checkout, name)
          return nil unless name.is_a?(String) && name.match?(NAME)

          candidates(name).find { |path| File.file?(File.join(checkout, path)) && !shadowed?(checkout, path) }
        end

        def candidates(name)
          own = ["#{BENCHMARKS}/#{name}.rb", "#{BENCHMARKS}/#{name}/benchmark.rb"]
          split = (1...name.size).select { |i| name[i] == "-" }.map { |i| "#{BENCHMARKS}/#{name[0, i]}/#{name[(i + 1)..]}.rb" }
          own + split
        end

        # In a folder with a benchmark.rb, the other files are its helpers.
        def shadowed?(checkout, path)
          parts = path.split("/")
          parts.size == 3 && parts.last != "benchmark.rb" && File.file?(File.join(checkout, parts[0], parts[1], "benchmark.rb"))
        end

        # Does harness/loader.rb pick the harness by `require "harness"`?
        def harness_convention?(checkout)
          File.read(File.join(checkout, LOADER)).match?(/\brequire\s*\(?\s*["']harness["']/)
        rescue SystemCallError
          false
        end

        # Files of the benchmark's own folder that Git LFS left as pointers
        # (relative to the checkout).
        def lfs_pointers(checkout, script)
          folder = File.dirname(File.join(checkout, script))
          return [] if File.basename(folder) == BENCHMARKS

          Dir.glob("**/*", base: folder).sort.filter_map do |relative|
            path = File.join(folder, relative)
            next unless File.file?(path) && File.size(path) < 1024

            File.join(File.dirname(script), relative) if File.open(path, "rb") { |f| f.read(LFS_POINTER.size) } == LFS_POINTER
          rescue SystemCallError
            nil
          end
        end

        # The benchmark's Gemfile (relative to the checkout), or nil.
        def gemfile(checkout, script)
          folder = File.dirname(script)
          path = File.join(folder, "Gemfile")
          path if folder != BENCHMARKS && File.file?(File.join(checkout, path))
        end
      end
    end
  end
end
