// Output files are written whole or not at all.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace gpubench {

// Throws UsageError when `path` cannot be created as a file (a directory, a
// missing directory, no permission). Call before a long run so it fails fast,
// leaving nothing behind.
void check_writable(const std::string& path);

// Writes each (path, content) to a temporary file beside its path, then,
// once all are written, renames them over their paths. On an error nothing
// is left behind (except files already renamed, when a rename fails).
void write_files(const std::vector<std::pair<std::string, std::string>>& files);

}  // namespace gpubench
