#include "src/report/csv_report.hpp"

#include <string>

#include <fmt/format.h>

#include "src/detail/json_text.hpp"

namespace gpubench {

std::string format_csv(const RunReport& report) {
  std::string out =
      "pattern,variant,ladder,params,samples,median_ms,min_ms,max_ms,noise,metric,unit,value,verified,device,l2\n";
  for (const auto& r : report.results) {
    const std::string params = params_text(r.params, ";");  // "dtype=int32;n=1024": one field, no commas
    const Metric* m = r.metric(r.primary);
    out += fmt::format("{},{},{},{},{},{:.6f},{:.6f},{:.6f},{:.4f},{},{},{},{},{},{}\n", r.pattern, r.variant, r.ladder,
                       params, r.samples_ms.size(), r.stats.median_ms, r.stats.min_ms, r.stats.max_ms, r.stats.noise,
                       r.primary, m ? m->unit : "", m && m->value ? fmt::format("{:.4f}", *m->value) : "",
                       r.verified ? "true" : "false", r.device >= 0 ? std::to_string(r.device) : "",
                       r.hot ? "hot" : "flushed");
  }
  return out;
}

}  // namespace gpubench
