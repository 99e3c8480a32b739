//===- CpuBackend.cpp - Running shared objects on the host -----*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>
#include <mutex>
#include <unistd.h>

using namespace mp_runtime;

namespace {
/// LLVM's OpenMP runtime once loaded, and the thread count asked for.
struct OpenMP {
  std::mutex mutex;
  void (*setNumThreads)(int) = nullptr;
  void (*setBlocktime)(int) = nullptr; // set when the machine is busy
  int defaultThreads = 1;
  std::string error;
  bool tried = false;
  std::atomic<int32_t> threads{0};
};
} // namespace

static OpenMP &getOpenMP() {
  static OpenMP openMP;
  return openMP;
}

/// Whether other work keeps this machine's cores busy now, unless
/// $KMP_BLOCKTIME decides: another thread runnable besides the caller
/// (/proc/loadavg's running count, the least of three looks 2 ms apart).
/// Between parallel regions libomp's threads spin for 200 ms: on a machine
/// of its own that makes the second core pay (the CNN step: 432 steps/s on
/// two threads, 187 with threads that sleep at once, 290 on one); on a busy
/// one, spinning threads wait for each other's time slices (the MLP step:
/// 31 steps/s on two threads, 1078 sleeping, 1000 on one thread).
static bool isBusy() {
  if (std::getenv("KMP_BLOCKTIME"))
    return false;
  long fewest = -1;
  for (int look = 0; look < 3; ++look) {
    if (look)
      usleep(2000);
    FILE *file = std::fopen("/proc/loadavg", "r");
    if (!file)
      return false;
    long running = 0; // the fourth field: running/total
    int read = std::fscanf(file, "%*f %*f %*f %ld", &running);
    std::fclose(file);
    if (read != 1)
      return false;
    fewest = fewest < 0 ? running : std::min(fewest, running);
  }
  return fewest > 1;
}

/// Loads LLVM's OpenMP runtime, which compiled modules that run on threads
/// call, into the global scope (once); an error says where it looked.
static mp_status loadOpenMP() {
  OpenMP &omp = getOpenMP();
  std::lock_guard<std::mutex> lock(omp.mutex);
  if (!omp.tried) {
    omp.tried = true;
    std::vector<std::string> dirs;
    appendGlob("/usr/lib/llvm-*/lib", dirs);
    std::reverse(dirs.begin(), dirs.end()); // the newest LLVM first
    // A copy shipped next to the runtime (a machine without LLVM) first.
    std::string own = runtimeDirectory();
    if (!own.empty())
      dirs.insert(dirs.begin(), own);
    // Global: the module's calls (__kmpc_fork_call...) bind to it.
    if (void *lib = openLibrary(
            "LLVM's OpenMP runtime", "MP_LIBOMP", {"libomp.so.5"}, dirs,
            {"the runtime's directory", "/usr/lib/llvm-*/lib"}, RTLD_GLOBAL,
            omp.error)) {
      auto getMaxThreads =
          reinterpret_cast<int (*)()>(dlsym(lib, "omp_get_max_threads"));
      omp.setNumThreads =
          reinterpret_cast<void (*)(int)>(dlsym(lib, "omp_set_num_threads"));
      if (!getMaxThreads || !omp.setNumThreads) {
        omp.setNumThreads = nullptr;
        omp.error = "the OpenMP runtime that was loaded has no "
                    "omp_get_max_threads or omp_set_num_threads";
      } else {
        if (isBusy())
          omp.setBlocktime =
              reinterpret_cast<void (*)(int)>(dlsym(lib, "kmp_set_blocktime"));
        // Ranks of a data-parallel run on one machine share its cores.
        omp.defaultThreads = getMaxThreads();
        const char *ranks = std::getenv("OMPI_COMM_WORLD_LOCAL_SIZE");
        if (ranks && !std::getenv("OMP_NUM_THREADS") && std::atoi(ranks) > 1)
          omp.defaultThreads =
              std::max(1, omp.defaultThreads / std::atoi(ranks));
      }
    } else {
      omp.error += " (or compile with mp-lower-to-cpu parallel=false)";
    }
  }
  return omp.setNumThreads ? MP_OK : fail(MP_ERROR_NOT_FOUND, omp.error);
}

void *mp_runtime::openModule(const std::string &path, int flags,
                             std::string &error) {
  if (void *handle = dlopen(path.c_str(), flags | RTLD_LOCAL))
    return handle;
  std::string why = dlerror();
  // A module compiled to run on threads calls LLVM's OpenMP runtime.
  if (why.find("undefined symbol: __kmpc_") == std::string::npos) {
    error = "cannot load module '" + path + "': " + why;
    return nullptr;
  }
  if (loadOpenMP() != MP_OK) {
    error = "cannot load module '" + path +
            "', which runs on threads: " + mp_last_error();
    return nullptr;
  }
  if (void *handle = dlopen(path.c_str(), flags | RTLD_LOCAL))
    return handle;
  error = "cannot load module '" + path + "': " + dlerror();
  return nullptr;
}

extern "C" mp_status mp_set_num_threads(int32_t threads) {
  if (threads < 0 || threads > MP_MAX_THREADS)
    return fail(MP_ERROR_UNSUPPORTED,
                "the thread count must be 0 (as many as cores) or 1 to " +
                    std::to_string(MP_MAX_THREADS) + ", got " +
                    std::to_string(threads));
  getOpenMP().threads = threads;
  return MP_OK;
}

namespace {
class CpuBackend : public Backend {
public:
  ~CpuBackend() override {
    if (handle)
      dlclose(handle);
  }

  mp_status load(const std::string &path) override {
    std::string error;
    handle = openModule(path, RTLD_NOW, error);
    if (!handle)
      return fail(MP_ERROR_NOT_FOUND, error);
    return MP_OK;
  }

  void *lookup(const std::string &symbol) override {
    return dlsym(handle, symbol.c_str());
  }

  /// The CPU's work is done when the call returns.
  mp_status invoke(void *fn, void **args, bool /*wait*/) override {
    OpenMP &omp = getOpenMP();
    if (omp.setNumThreads) {
      int32_t threads = omp.threads;
      omp.setNumThreads(threads ? threads : omp.defaultThreads);
      if (omp.setBlocktime)
        omp.setBlocktime(0);
    }
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
