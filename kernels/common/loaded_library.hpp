// A library opened at run time (dlopen), so that gpubench builds and runs
// without it: the steps that need it say why they cannot run. Its header
// gives the types; the symbols come from here.
#pragma once

#include <dlfcn.h>

#include <string>

namespace gpubench {

class LoadedLibrary {
 public:
  // `file` as dlopen finds it ("libnccl.so.2"); if it cannot be opened,
  // error() is `missing` followed by dlerror's reason.
  LoadedLibrary(const char* file, const std::string& missing) : file_(file), handle_(dlopen(file, RTLD_NOW | RTLD_LOCAL)) {
    if (!handle_) error_ = missing + ": " + dlerror();
  }

  // Sets f to the symbol `name`; the first one missing is what error() says.
  template <class F>
  void resolve(F& f, const char* name) {
    f = symbol<F>(name);
    if (!f && error_.empty()) error_ = file_ + " has no " + name;
  }

  // The symbol `name`, or nullptr, for one the library may lack.
  template <class F>
  F symbol(const char* name) const {
    return handle_ ? reinterpret_cast<F>(dlsym(handle_, name)) : nullptr;
  }

  // Why the library cannot be used, or empty.
  const std::string& error() const { return error_; }

 private:
  std::string file_;
  void* handle_;  // never closed: the symbols live as long as the process
  std::string error_;
};

}  // namespace gpubench
