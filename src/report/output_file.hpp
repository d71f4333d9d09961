// Output files are checked before anything runs and written whole or not at all.
#pragma once

#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace gpubench {

// Where one output goes, as check_outputs found it.
struct OutputTarget {
  enum class Kind {
    standard_output,  // "-"
    file,             // a new or existing regular file: written beside it, then renamed over it
    special,          // a FIFO, a character device (/dev/null), a terminal: written through
  };
  std::string path;     // as the user wrote it
  std::string written;  // the file renamed over: `path` with symbolic links resolved
  Kind kind = Kind::file;
};

// Checks every named output before a run starts: not empty, not a directory,
// in a directory that exists and can be written, not a read-only,
// immutable or append-only file, no file named twice, and no output that is
// also one of `inputs`. Throws UsageError naming the path and the reason.
std::vector<OutputTarget> check_outputs(const std::vector<std::string>& outputs, const std::vector<std::string>& inputs);

// Writes each (target, content): every file to a temporary file beside it
// first, then the special files and standard output (`out`), then the
// files renamed over their paths. On an error, standard output's included
// (also one from what the caller printed to `out` before), no file is
// replaced (a rename that fails after others leaves those done) and no
// temporary file is left.
void write_outputs(const std::vector<std::pair<OutputTarget, std::string>>& outputs, std::ostream& out);

}  // namespace gpubench
