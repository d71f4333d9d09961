// Reading a JSON document from a file (configs, results), with errors that
// name the file and, for a syntax error, its line and column.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace gpubench {

// Reads and parses a JSON file; UsageError names the file and, for a syntax
// error, the line and column where parsing stopped.
nlohmann::json load_json_file(const std::string& path);

}  // namespace gpubench
