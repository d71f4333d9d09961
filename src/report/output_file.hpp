// Output files are written whole or not at all.
#pragma once

#include <string>

namespace gpubench {

// Throws UsageError when `path` cannot be created (missing directory, no
// permission). Call before a long run so it fails fast, leaving nothing behind.
void check_writable(const std::string& path);

// Writes to a temporary file beside `path`, then renames it over `path`.
void write_atomically(const std::string& path, const std::string& content);

}  // namespace gpubench
