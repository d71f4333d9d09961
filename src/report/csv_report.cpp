#include "src/report/csv_report.hpp"

#include <fmt/format.h>

namespace gpubench {

std::string format_csv(const RunReport& report) {
  std::string out =
      "pattern,variant,ladder,params,samples,median_ms,min_ms,max_ms,noise,metric,unit,value,verified\n";
  for (const auto& r : report.results) {
    std::string params;  // "n=1024;dtype=int32": one field, no commas
    for (const auto& [key, value] : r.params.items())
      params += fmt::format("{}{}={}", params.empty() ? "" : ";", key,
                            value.is_string() ? value.get<std::string>() : value.dump());
    const Metric* m = r.metric(r.primary);
    out += fmt::format("{},{},{},{},{},{:.6f},{:.6f},{:.6f},{:.4f},{},{},{},{}\n", r.pattern, r.variant, r.ladder,
                       params, r.samples_ms.size(), r.stats.median_ms, r.stats.min_ms, r.stats.max_ms, r.stats.noise,
                       r.primary, m ? m->unit : "", m && m->value ? fmt::format("{:.4f}", *m->value) : "",
                       r.verified ? "true" : "false");
  }
  return out;
}

}  // namespace gpubench
