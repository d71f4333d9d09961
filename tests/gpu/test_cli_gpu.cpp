// Command-line behaviour that needs a GPU to be seen.
#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "src/cli/commands.hpp"
#include "src/detail/device.hpp"
#include "src/detail/errors.hpp"
#include "tests/test_session.hpp"

#include <unistd.h>

namespace {

int cli(std::initializer_list<const char*> args, std::string& out, std::string& err) {
  std::vector<const char*> argv{"gpubench"};
  argv.insert(argv.end(), args.begin(), args.end());
  std::ostringstream o, e;
  const int rc = gpubench::run_cli(int(argv.size()), argv.data(), o, e, gpubench::builtin_patterns());
  out = o.str();
  err = e.str();
  return rc;
}

}  // namespace

TEST_CASE("an --n larger than device memory is one line and exit 2", "[gpu][cli]") {
  // Host memory is checked first: take an n whose input fits the host but
  // whose device buffers (course1 folds a copy of the input) do not fit the GPU.
  gpubench::open_device(0);
  const double host = double(sysconf(_SC_PHYS_PAGES)) * double(sysconf(_SC_PAGE_SIZE));
  const auto n = std::int64_t((double(gpubench::device_free_bytes()) + double(1ull << 31)) / 8);
  if (4.0 * double(n) > 0.7 * host)
    return gpubench::testing::skip_case("this host has too little memory to get past the host check");
  const std::string n_text = std::to_string(n);
  std::string out, err;
  CHECK(cli({"reduce", "--variant", "course1", "--n", n_text.c_str()}, out, err) == gpubench::kExitUsage);
  CHECK(err.find("device memory") != std::string::npos);
  CHECK(std::count(err.begin(), err.end(), '\n') == 1);
}

TEST_CASE("a short GPU run prints the table and writes a valid JSON", "[gpu][cli]") {
  const std::string path = "gpu_cli_test.json";
  std::remove(path.c_str());
  std::string out, err;
  REQUIRE(cli({"reduce", "--variant", "reduce0,reduce9,cub", "--n", "1M", "--min-samples", "3", "--min-time", "0",
               "--json", path.c_str()},
              out, err) == gpubench::kExitOk);
  CHECK(out.find("reduce9") != std::string::npos);
  std::ifstream in(path);
  const auto doc = nlohmann::json::parse(in);
  CHECK(doc.at("results").size() == 3);
  CHECK(doc.at("device").at("sm_count").get<int>() > 0);
  for (const auto& r : doc.at("results")) CHECK(r.at("verified").get<bool>());
  std::remove(path.c_str());
}

TEST_CASE("the first step of a run sees the whole input, at every small size", "[gpu][cli]") {
  // A run's first launch once raced the upload of its input (a pageable
  // cudaMemcpy seen by a non-blocking stream); small sizes showed it.
  for (const char* n : {"2^16", "2^17", "2^18", "2^19", "2^20"}) {
    std::string out, err;
    const int rc = cli({"reduce", "--variant", "reduce6", "--n", n, "--min-samples", "1", "--min-time", "0"}, out, err);
    INFO(n << "\n" << out << err);
    CHECK(rc == gpubench::kExitOk);
  }
}
