// Typed reads of JSON values, with errors that name where the value sits in
// the caller's notation: "benchmarks[2].measure.hot" in configs, a JSON
// pointer ("/results/3/median_ms") in results files. Every message reads
// "PATH: expected WHAT, got VALUE" or "PATH: WHAT".
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace gpubench::json_fields {

// Throws UsageError("PATH: WHAT"); an empty path is the document, "(root)".
[[noreturn]] void fail(const std::string& path, const std::string& what);

// `expected` followed by the offending value as JSON: "expected a size, got \"abc\"".
[[noreturn]] void fail_got(const std::string& path, const std::string& expected, const nlohmann::json& got);

void require_object(const nlohmann::json& j, const std::string& path);

// Fails on a key outside `allowed`, naming the valid ones.
void check_keys(const nlohmann::json& obj, const std::vector<std::string>& allowed, const std::string& path);

// A JSON integer as int64; nothing for anything else, 2.5, "2" or a value
// past int64 (2^64 - 1 would read back as -1).
std::optional<std::int64_t> as_int64(const nlohmann::json& v);

// A whole number from `min` to `max`: not 2.5, nor "2".
std::int64_t integer(const nlohmann::json& v, const std::string& path, std::int64_t min, std::int64_t max);

bool boolean(const nlohmann::json& v, const std::string& path);
double number(const nlohmann::json& v, const std::string& path);
std::string string(const nlohmann::json& v, const std::string& path);

}  // namespace gpubench::json_fields
