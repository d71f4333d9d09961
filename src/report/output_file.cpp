#include "src/report/output_file.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>

#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include "src/detail/errors.hpp"

namespace gpubench {
namespace {

std::string temp_path(const std::string& path) { return fmt::format("{}.tmp{}", path, getpid()); }

[[noreturn]] void fail(const std::string& path, const std::string& why) {
  throw UsageError(fmt::format("cannot write '{}': {}", path, why));
}

void remove_all(const std::vector<std::pair<std::string, std::string>>& files) {
  for (const auto& f : files) std::remove(temp_path(f.first).c_str());
}

}  // namespace

void check_writable(const std::string& path) {
  struct stat st {};
  if (path.empty() || path.back() == '/' || (stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)))
    fail(path, "it is a directory, not a file");
  const std::string tmp = temp_path(path);
  std::FILE* f = std::fopen(tmp.c_str(), "w");
  if (!f) fail(path, std::strerror(errno));
  std::fclose(f);
  std::remove(tmp.c_str());
}

void write_files(const std::vector<std::pair<std::string, std::string>>& files) {
  for (const auto& [path, content] : files) {
    std::ofstream out(temp_path(path), std::ios::binary | std::ios::trunc);
    out << content;
    out.flush();
    if (!out) {
      const int err = errno;
      remove_all(files);
      fail(path, std::strerror(err));
    }
  }
  for (const auto& [path, content] : files) {
    if (std::rename(temp_path(path).c_str(), path.c_str()) != 0) {
      const int err = errno;
      remove_all(files);
      fail(path, std::strerror(err));
    }
  }
}

}  // namespace gpubench
