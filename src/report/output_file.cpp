#include "src/report/output_file.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>

#include <unistd.h>

#include <fmt/format.h>

#include "src/detail/errors.hpp"

namespace gpubench {
namespace {

std::string temp_path(const std::string& path) { return fmt::format("{}.tmp{}", path, getpid()); }

[[noreturn]] void fail(const std::string& path, int err) {
  throw UsageError(fmt::format("cannot write '{}': {}", path, std::strerror(err)));
}

}  // namespace

void check_writable(const std::string& path) {
  const std::string tmp = temp_path(path);
  std::FILE* f = std::fopen(tmp.c_str(), "w");
  if (!f) fail(path, errno);
  std::fclose(f);
  std::remove(tmp.c_str());
}

void write_atomically(const std::string& path, const std::string& content) {
  const std::string tmp = temp_path(path);
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) fail(path, errno);
    out << content;
    out.flush();
    if (!out) {
      const int err = errno;
      std::remove(tmp.c_str());
      fail(path, err);
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    std::remove(tmp.c_str());
    fail(path, err);
  }
}

}  // namespace gpubench
