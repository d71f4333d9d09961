// The versioned JSON result document (docs/json-schema.md).
#pragma once

#include <nlohmann/json.hpp>

#include "src/report/result.hpp"

namespace gpubench {

constexpr int kSchemaVersion = 2;

nlohmann::json to_json(const RunReport& report);
nlohmann::json to_json(const DeviceInfo& d);

// Reads a document written by to_json back (version 2) or by the first
// builds (version 1, whose per-field metrics become metrics). Throws UsageError naming the
// JSON path of the first missing or mistyped field, or a schema_version this
// build does not read.
RunReport report_from_json(const nlohmann::json& doc);

}  // namespace gpubench
