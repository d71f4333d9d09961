#include "src/report/output_file.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <climits>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include "src/detail/errors.hpp"

namespace gpubench {
namespace {

namespace fs = std::filesystem;

[[noreturn]] void fail(const std::string& path, const std::string& why) {
  throw UsageError(fmt::format("cannot write '{}': {}", path, why));
}

// A file of our own beside `path`, with a short name (the path's own name may
// already be as long as the file system allows). Returns its descriptor.
int make_temp(const std::string& path, std::string& temp) {
  const fs::path dir = fs::path(path).parent_path();
  temp = ((dir.empty() ? fs::path(".") : dir) / ".gpubench-XXXXXX").string();
  const int fd = mkstemp(temp.data());
  if (fd < 0) temp.clear();  // whatever name it tried is not ours to remove
  return fd;
}

// Immutable and append-only files cannot be replaced, even by root.
bool locked(const std::string& path) {
  const int fd = open(path.c_str(), O_RDONLY | O_NONBLOCK);
  if (fd < 0) return false;
  int flags = 0;
  const bool has = ioctl(fd, FS_IOC_GETFLAGS, &flags) == 0;
  close(fd);
  return has && (flags & (FS_IMMUTABLE_FL | FS_APPEND_FL));
}

// A file is replaced by renaming over it; in a sticky directory (/tmp) only
// the file's owner, the directory's owner or a privileged user may do that.
bool may_replace(const std::string& path, const struct stat& file) {
  const fs::path dir = fs::path(path).parent_path();
  struct stat d {};
  if (stat(dir.empty() ? "." : dir.c_str(), &d) != 0 || !(d.st_mode & S_ISVTX)) return true;
  const uid_t me = geteuid();
  return me == 0 || me == file.st_uid || me == d.st_uid;
}

// The identity of a path for "the same file twice": the file it names, links resolved.
std::string identity(const std::string& path) {
  std::error_code ec;
  const fs::path p = fs::weakly_canonical(fs::absolute(path, ec), ec);
  return ec ? path : p.string();
}

// Whether `a` and `b` name one file: by path, links resolved, or where both
// exist by device and inode (a hard link has a path of its own).
bool same_file(const std::string& a, const std::string& b) {
  struct stat sa {}, sb {};
  if (stat(a.c_str(), &sa) == 0 && stat(b.c_str(), &sb) == 0) return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
  return identity(a) == identity(b);
}

// The file that writing `path` (which does not exist) makes: at the end of
// its chain of links, if it is one, so that the links keep pointing at it.
std::string file_to_make(const std::string& path) {
  fs::path p = path;
  for (int links = 0;; ++links) {
    struct stat l {};
    if (lstat(p.c_str(), &l) != 0 || !S_ISLNK(l.st_mode)) break;
    if (links == 40) fail(path, std::strerror(ELOOP));  // the kernel's limit
    const fs::path target = fs::read_symlink(p);
    p = target.is_absolute() ? target : p.parent_path() / target;
  }
  // A name the file system cannot hold fails here, not after the run.
  const fs::path dir = p.parent_path().empty() ? fs::path(".") : p.parent_path();
  const long most = pathconf(dir.c_str(), _PC_NAME_MAX);
  if (p.string().size() >= PATH_MAX || p.filename().string().size() > std::size_t(most > 0 ? most : NAME_MAX))
    fail(path, std::strerror(ENAMETOOLONG));
  return p.string();
}

// Whether descriptor `fd` is open on the file `st` describes.
bool open_as(int fd, const struct stat& st) {
  struct stat open {};
  return fstat(fd, &open) == 0 && st.st_dev == open.st_dev && st.st_ino == open.st_ino;
}

OutputTarget check_one(const std::string& path) {
  if (path.empty()) throw UsageError("an output path is empty (write '-' for standard output)");
  if (path == "-") return {path, path, OutputTarget::Kind::standard_output};
  struct stat st {};
  const bool exists = stat(path.c_str(), &st) == 0;  // follows links
  if (exists && S_ISDIR(st.st_mode)) fail(path, "it is a directory, not a file");
  if (path.back() == '/') fail(path, "a path that ends in '/' names a directory, not a file");
  // /dev/stdout (or /proc/self/fd/1) redirected to a file is our standard
  // output: replacing that file would lose what is already written to it.
  if (exists && open_as(STDOUT_FILENO, st)) return {path, path, OutputTarget::Kind::standard_output};
  // The file standard error goes to: replacing it would lose the messages.
  if (exists && S_ISREG(st.st_mode) && open_as(STDERR_FILENO, st)) fail(path, "standard error is written to it");
  if (exists && !S_ISREG(st.st_mode)) {
    if (access(path.c_str(), W_OK) != 0) fail(path, std::strerror(errno));
    return {path, path, OutputTarget::Kind::special};
  }
  const std::string written = exists ? identity(path) : file_to_make(path);
  if (exists && ((st.st_mode & 0222) == 0 || access(path.c_str(), W_OK) != 0))
    fail(path, "the file is read-only");
  if (exists && locked(written)) fail(path, "the file is immutable or append-only");
  if (exists && !may_replace(written, st)) fail(path, "it belongs to another user in a sticky directory");
  std::string temp;
  const int fd = make_temp(written, temp);
  if (fd < 0) fail(path, std::strerror(errno));
  close(fd);
  std::remove(temp.c_str());
  return {path, written, OutputTarget::Kind::file};
}

// The temporary files being written, for a signal handler to remove: a
// blocking output (a slow pipe, a FIFO) can hold them while the user presses
// Ctrl-C. Fixed slots of C strings, since a handler may not allocate.
std::array<std::atomic<const char*>, 8> pending_temps{};

extern "C" void remove_temps_and_die(int signal) {
  for (auto& slot : pending_temps)
    if (const char* temp = slot.load()) unlink(temp);
  std::signal(signal, SIG_DFL);
  std::raise(signal);
}

// While alive, SIGINT, SIGTERM and SIGHUP remove the files track() names
// before they end the process; a signal the process ignores (nohup) stays
// ignored.
class TempsOnSignal {
 public:
  TempsOnSignal() {
    struct sigaction handler {};
    handler.sa_handler = remove_temps_and_die;
    sigemptyset(&handler.sa_mask);
    for (std::size_t i = 0; i < kSignals.size(); ++i) {
      sigaction(kSignals[i], nullptr, &before_[i]);
      if (before_[i].sa_handler != SIG_IGN) sigaction(kSignals[i], &handler, nullptr);
    }
  }
  ~TempsOnSignal() {
    for (std::size_t i = 0; i < kSignals.size(); ++i) sigaction(kSignals[i], &before_[i], nullptr);
    for (auto& slot : pending_temps) slot = nullptr;
  }
  // `temp` must outlive this object, unchanged until it is renamed or removed.
  void track(std::size_t slot, const std::string& temp) {
    if (slot < pending_temps.size()) pending_temps[slot] = temp.c_str();
  }
  TempsOnSignal(const TempsOnSignal&) = delete;
  TempsOnSignal& operator=(const TempsOnSignal&) = delete;

 private:
  static constexpr std::array<int, 3> kSignals = {SIGINT, SIGTERM, SIGHUP};
  std::array<struct sigaction, 3> before_{};
};

void write_all(int fd, const std::string& content, const std::string& path) {
  for (std::size_t done = 0; done < content.size();) {
    const ssize_t n = write(fd, content.data() + done, content.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      fail(path, std::strerror(errno));
    }
    done += std::size_t(n);
  }
}

}  // namespace

std::vector<OutputTarget> check_outputs(const std::vector<std::string>& outputs, const std::vector<std::string>& inputs) {
  std::vector<OutputTarget> targets;
  for (const std::string& path : outputs) {
    OutputTarget t = check_one(path);
    for (const OutputTarget& other : targets) {
      const bool both_stdout =
          t.kind == OutputTarget::Kind::standard_output && other.kind == OutputTarget::Kind::standard_output;
      if (both_stdout || (t.kind != OutputTarget::Kind::special && same_file(other.written, t.written)))
        throw UsageError(fmt::format("'{}' is named as two outputs", path));
    }
    for (const std::string& in : inputs)
      if (t.kind != OutputTarget::Kind::standard_output && same_file(in, t.written))
        throw UsageError(fmt::format("cannot write '{}': it is an input of this command", path));
    targets.push_back(std::move(t));
  }
  return targets;
}

void write_outputs(const std::vector<std::pair<OutputTarget, std::string>>& outputs, std::ostream& out) {
  std::vector<std::string> temps(outputs.size());
  std::vector<int> specials(outputs.size(), -1);
  auto clean = [&] {
    for (const std::string& t : temps)
      if (!t.empty()) std::remove(t.c_str());
    for (const int fd : specials)
      if (fd >= 0) close(fd);
  };
  try {
    TempsOnSignal on_signal;
    for (std::size_t i = 0; i < outputs.size(); ++i) {
      const auto& [target, content] = outputs[i];
      if (target.kind != OutputTarget::Kind::file) continue;
      const int fd = make_temp(target.written, temps[i]);
      if (fd < 0) fail(target.path, std::strerror(errno));
      on_signal.track(i, temps[i]);
      struct stat st {};
      const mode_t umask_now = umask(0);
      umask(umask_now);
      fchmod(fd, stat(target.written.c_str(), &st) == 0 ? st.st_mode & 07777 : 0666 & ~umask_now);
      try {
        write_all(fd, content, target.path);
        if (fsync(fd) != 0) fail(target.path, std::strerror(errno));  // on disk before it replaces the old file
      } catch (...) {
        close(fd);
        throw;
      }
      if (close(fd) != 0) fail(target.path, std::strerror(errno));
    }
    // Non-blocking to open: a FIFO nobody reads is an error, not a hang;
    // blocking to write, so a slow reader is waited for.
    for (std::size_t i = 0; i < outputs.size(); ++i) {
      const OutputTarget& target = outputs[i].first;
      if (target.kind != OutputTarget::Kind::special) continue;
      specials[i] = open(target.path.c_str(), O_WRONLY | O_NONBLOCK);
      if (specials[i] < 0) fail(target.path, errno == ENXIO ? "no process is reading it" : std::strerror(errno));
      fcntl(specials[i], F_SETFL, fcntl(specials[i], F_GETFL) & ~O_NONBLOCK);
    }
    // The streams first: what they refuse leaves every file as it was.
    for (std::size_t i = 0; i < outputs.size(); ++i) {
      const auto& [target, content] = outputs[i];
      if (target.kind == OutputTarget::Kind::special) {
        write_all(specials[i], content, target.path);
      } else if (target.kind == OutputTarget::Kind::standard_output) {
        out << content << std::flush;
      }
    }
    // Also where the caller printed a table there before: what the user
    // would read is lost, so no file is replaced.
    if (!out) {
      const bool files = std::any_of(outputs.begin(), outputs.end(), [](const auto& o) {
        return o.first.kind != OutputTarget::Kind::standard_output;
      });
      throw UsageError(files ? "writing the standard output failed: no output file was written"
                             : "writing the standard output failed");
    }
    for (std::size_t i = 0; i < outputs.size(); ++i) {
      if (temps[i].empty()) continue;
      if (std::rename(temps[i].c_str(), outputs[i].first.written.c_str()) != 0) fail(outputs[i].first.path, std::strerror(errno));
      temps[i].clear();
    }
  } catch (...) {
    clean();
    throw;
  }
  clean();
}

}  // namespace gpubench
