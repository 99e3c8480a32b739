//===- CpuBackend.cpp - Running shared objects on the host -----*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

#include <dlfcn.h>

using namespace mp_runtime;

namespace {
class CpuBackend : public Backend {
public:
  ~CpuBackend() override {
    if (handle)
      dlclose(handle);
  }

  mp_status load(const std::string &path) override {
    handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle)
      return fail(MP_ERROR_NOT_FOUND,
                  "cannot load module '" + path + "': " + dlerror());
    return MP_OK;
  }

  void *lookup(const std::string &symbol) override {
    return dlsym(handle, symbol.c_str());
  }

  void invoke(void *fn, void **args) override {
    reinterpret_cast<void (*)(void **)>(fn)(args);
  }

private:
  void *handle = nullptr;
};
} // namespace

std::unique_ptr<Backend> mp_runtime::createCpuBackend() {
  return std::make_unique<CpuBackend>();
}
