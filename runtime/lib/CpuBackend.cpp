//===- CpuBackend.cpp - Running shared objects on the host -----*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

#include <cstdlib>
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

  mp_status invoke(void *fn, void **args) override {
    reinterpret_cast<void (*)(void **)>(fn)(args);
    return MP_OK;
  }

  mp_status stage(const mp_tensor &tensor, size_t, void **data) override {
    *data = tensor.data;
    return MP_OK;
  }

  void release(void *allocated) override { std::free(allocated); }

private:
  void *handle = nullptr;
};
} // namespace

std::unique_ptr<Backend> mp_runtime::createCpuBackend() {
  return std::make_unique<CpuBackend>();
}
