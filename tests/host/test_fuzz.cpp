// Fuzzing the entry points in-process: seeded mutations of the shipped
// configs, of a committed result file, and random size, threshold and
// number strings. Every case must end in exit 0, 1 (compare: a regression)
// or 2 with one line on stderr: never a crash, a hang or an escaped
// exception. .ci/run also runs this under AddressSanitizer and
// UndefinedBehaviorSanitizer (the asan preset, CMakePresets.json).
#include <catch2/catch.hpp>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "src/cli/commands.hpp"
#include "tests/host/cli_outcome.hpp"
#include "src/detail/errors.hpp"

using namespace gpubench;
namespace fs = std::filesystem;

namespace {

constexpr int kCases = 10000;

int cli(const std::vector<std::string>& args, std::string& err) {
  const testing::Outcome r = testing::run_gpubench(builtin_patterns(), args);
  err = r.err;
  return r.rc;
}

std::string read(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

const std::vector<std::string> kExtremes = {"-1", "0", "1e308", "-1e308", "9223372036854775808", "18446744073709551616",
                                           "1.5", "\"2^62\"", "\"NaN\"", "null", "[]", "{}", "\"\"", "true",
                                           std::string(400, '9'), std::string(20000, '1'), "\xff\xfe", "5\xc3"};

// One to three of: a byte changed, a cut, nesting around it, a number
// replaced by an extreme, bytes inserted, a range deleted.
std::string mutate(std::string s, std::mt19937_64& rng) {
  auto at = [&](std::size_t n) { return n ? std::size_t(rng() % n) : 0; };
  for (int k = 0, times = 1 + int(rng() % 3); k < times; ++k) {
    switch (rng() % 6) {
      case 0:
        if (!s.empty()) s[at(s.size())] = char(rng() % 256);
        break;
      case 1: s.resize(at(s.size() + 1)); break;
      case 2: {
        const std::size_t depth = 1 + at(120);
        s = std::string(depth, '[') + s + std::string(depth, ']');
        break;
      }
      case 3: {
        const std::size_t from = s.find_first_of("0123456789", at(s.size()));
        if (from == std::string::npos) break;
        const std::size_t to = s.find_first_not_of("0123456789.", from);
        s.replace(from, (to == std::string::npos ? s.size() : to) - from, kExtremes[at(kExtremes.size())]);
        break;
      }
      case 4: s.insert(at(s.size() + 1), std::string(1 + at(8), char(rng() % 256))); break;
      default: {
        const std::size_t from = at(s.size() + 1);
        s.erase(from, at(64));
      }
    }
  }
  return s;
}

std::string random_text(std::mt19937_64& rng) {
  static const std::string alphabet = "0123456789^:,KMGkmg-+.e %x";
  if (rng() % 8 == 0) return kExtremes[rng() % kExtremes.size()];
  std::string s(rng() % 13, ' ');
  for (char& c : s) c = alphabet[rng() % alphabet.size()];
  return s;
}

void expect_clean(int rc, const std::string& err, const std::string& what) {
  INFO(what << "\nstderr: " << err);
  // No device: a config whose runs span every GPU, on a machine without one.
  REQUIRE((rc == kExitOk || rc == kExitVerifyFailed || rc == kExitUsage || rc == kExitNoDevice));
  if (rc == kExitUsage || rc == kExitNoDevice) REQUIRE(std::count(err.begin(), err.end(), '\n') == 1);
}

// One directory per process: ctest -j runs the fuzz tests side by side.
struct TempDir {
  fs::path path = fs::temp_directory_path() / ("gpubench-fuzz-" + std::to_string(getpid()));
  TempDir() {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
};

}  // namespace

TEST_CASE("fuzz: mutated configs plan or are refused in one line", "[fuzz]") {
  TempDir d;
  std::vector<std::string> configs;
  for (const auto& e : fs::directory_iterator(fs::path(GPUBENCH_SOURCE_DIR) / "configs")) configs.push_back(read(e.path()));
  std::sort(configs.begin(), configs.end());
  std::mt19937_64 rng(20261201);
  const std::string path = (d.path / "c.json").string();
  for (int i = 0; i < kCases; ++i) {
    const std::string text = mutate(configs[rng() % configs.size()], rng);
    std::ofstream(path, std::ios::binary) << text;
    std::string err;
    expect_clean(cli({"run", path, "--dry-run", "--max-runs", "2000"}, err), err, "case " + std::to_string(i));
  }
}

TEST_CASE("fuzz: mutated result files compare or are refused in one line", "[fuzz]") {
  TempDir d;
  const std::string good = std::string(GPUBENCH_SOURCE_DIR) + "/results/h200/scan-past-2p31.json";
  const std::string original = read(good);
  std::mt19937_64 rng(31);
  const std::string path = (d.path / "r.json").string();
  for (int i = 0; i < kCases; ++i) {
    std::ofstream(path, std::ios::binary) << mutate(original, rng);
    std::string err;
    expect_clean(cli({"compare", good, path}, err), err, "case " + std::to_string(i));
  }
}

TEST_CASE("fuzz: random size, threshold and number strings are taken or refused in one line", "[fuzz]") {
  const std::string good = std::string(GPUBENCH_SOURCE_DIR) + "/results/h200/scan-past-2p31.json";
  std::mt19937_64 rng(7);
  for (int i = 0; i < kCases; ++i) {
    const std::string text = random_text(rng);
    std::string err;
    std::vector<std::string> args;
    switch (i % 5) {
      case 0: args = {"reduce", "--variant", "cpu", "--dry-run", "--max-runs", "100", "--n", text}; break;
      case 1: args = {"compare", good, good, "--threshold", text}; break;
      case 2: args = {"gemm", "--variant", "cpu", "--dry-run", "--m", text, "--n", "8", "--k", "8"}; break;
      case 3: args = {"reduce", "--variant", "cpu", "--dry-run", "--block", text}; break;
      default: args = {"scan", "--variant", "cpu", "--dry-run", "--seed", text, "--min-time", random_text(rng)};
    }
    expect_clean(cli(args, err), err, "'" + text + "'");
  }
}
