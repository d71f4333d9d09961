#include "src/report/csv_report.hpp"

#include <fmt/format.h>

namespace gpubench {

std::string format_csv(const RunReport& report) {
  std::string out =
      "pattern,variant,ladder,n,dtype,op,block,samples,median_ms,min_ms,max_ms,noise,gbps,pct_of_peak,verified\n";
  for (const auto& r : report.results) {
    const auto& p = r.params;
    out += fmt::format("{},{},{},{},{},{},{},{},{:.6f},{:.6f},{:.6f},{:.4f},{:.2f},{},{}\n", r.pattern, r.variant,
                       r.ladder, p.at("n").get<long long>(), p.at("dtype").get<std::string>(),
                       p.at("op").get<std::string>(), p.at("block").get<int>(), r.samples_ms.size(),
                       r.stats.median_ms, r.stats.min_ms, r.stats.max_ms, r.stats.noise, r.gbps,
                       r.pct_of_peak ? fmt::format("{:.2f}", *r.pct_of_peak) : "", r.verified ? "true" : "false");
  }
  return out;
}

}  // namespace gpubench
