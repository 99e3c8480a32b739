//===- Internal.h - mp runtime internals ------------------------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef MP_RUNTIME_INTERNAL_H
#define MP_RUNTIME_INTERNAL_H

#include "mp/Runtime/mp_runtime.h"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <dlfcn.h>
#include <memory>
#include <string>
#include <vector>

namespace mp_runtime {

/// Records `message` as the calling thread's last error and returns `status`.
mp_status fail(mp_status status, const std::string &message);

/// "f32[64,?]" (a size below zero is dynamic).
std::string formatShape(mp_dtype dtype, int32_t rank, const int64_t *shape);
/// "f32[64,?]" or "f32" (scalar), followed with `withRole` by its role
/// ("@param", "@state=0.5").
std::string formatValueInfo(const mp_value_info &info, bool withRole);

/// Copies `text` into `buf` as snprintf would (truncated to `size` - 1 bytes
/// and NUL-terminated) and returns its length.
size_t copyOut(const std::string &text, char *buf, size_t size);

/// The most bytes one tensor may hold (1 TiB): larger shapes are malformed
/// input, not data.
constexpr uint64_t kMaxTensorBytes = uint64_t(1) << 40;

/// Checks a shape (rank, non-negative sizes, total size within
/// kMaxTensorBytes without overflow) and sets `bytes`; errors start with
/// `where`.
mp_status checkShape(mp_dtype dtype, int32_t rank, const int64_t *shape,
                     size_t &bytes, const std::string &where = "");

/// Checks `tensor` against `info` (dtype, rank, static sizes) and sets
/// `bytes` (if given) to its size; the message names the entry and the
/// argument.
mp_status checkArgument(const std::string &entryName, int32_t index,
                        const mp_tensor &tensor, const mp_value_info &info,
                        size_t *bytes = nullptr);

/// f32 -> bf16 bits, rounded to nearest even; NaN stays a (quiet) NaN.
inline uint16_t toBF16(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  if ((bits & 0x7fffffffu) > 0x7f800000u)
    return static_cast<uint16_t>((bits >> 16) | 0x40);
  uint32_t rounding = 0x7fffu + ((bits >> 16) & 1u);
  return static_cast<uint16_t>((bits + rounding) >> 16);
}

/// bf16 bits -> f32 (exact).
inline float fromBF16(uint16_t bits) {
  uint32_t wide = static_cast<uint32_t>(bits) << 16;
  float value;
  std::memcpy(&value, &wide, 4);
  return value;
}

/// f32 -> f16 bits, rounded to nearest even.
inline uint16_t toF16(float value) {
  _Float16 half = static_cast<_Float16>(value);
  uint16_t bits;
  std::memcpy(&bits, &half, 2);
  return bits;
}

/// f16 bits -> f32 (exact).
inline float fromF16(uint16_t bits) {
  _Float16 half;
  std::memcpy(&half, &bits, 2);
  return static_cast<float>(half);
}

/// The output size of a convolution along one spatial dimension.
inline int64_t convolutionOutputSize(int64_t image, int64_t window,
                                     int64_t stride, int64_t dilation,
                                     int64_t padding) {
  return (image + 2 * padding - dilation * (window - 1) - 1) / stride + 1;
}
/// Reads a .npy file from `file` (mp_npy_read opens it); errors start with
/// `where`.
mp_status readNpy(FILE *file, const std::string &where, int as_bf16,
                  mp_tensor *out);

/// Parses an entry signature "ARG;ARG->RESULT;RESULT".
mp_status parseSignature(const std::string &text,
                         std::vector<mp_value_info> &args,
                         std::vector<mp_value_info> &results);

/// What a backend provides: loading a compiled module, calling its packed
/// entry points and the memory they work on. The CPU backend loads shared
/// objects; the CUDA backend loads the host object the same way, and the
/// kernels it launches work on CUDA managed memory.
class Backend {
public:
  virtual ~Backend() = default;
  virtual mp_status load(const std::string &path) = 0;
  /// The address of `symbol`, or null.
  virtual void *lookup(const std::string &symbol) = 0;
  /// Calls a packed entry point `void fn(void **args)`; fails if the code
  /// reported an error (a failed kernel launch) while it ran. Unless
  /// `wait`, the backend may return while the call's device work is still
  /// queued: then wait() or collect() comes before the host reads what the
  /// call wrote.
  virtual mp_status invoke(void *fn, void **args, bool wait) = 0;
  /// Waits for the work of every call so far.
  virtual mp_status wait() { return MP_OK; }
  /// A small value of the backend's memory to copy out with readBack().
  struct Piece {
    const void *data;
    size_t bytes;
  };
  /// The most bytes one readBack() copies.
  static constexpr size_t kMaxReadBackBytes = 256;
  /// Copies `pieces` (kMaxReadBackBytes in all at most), one after the
  /// other, out of the backend's memory as the work queued so far leaves
  /// them, and sets `ticket`; collect(ticket) gives their bytes. Here:
  /// waits for that work and copies them at once.
  virtual mp_status readBack(const std::vector<Piece> &pieces,
                             uint64_t &ticket);
  /// Waits for the copies of readBack's `ticket` (and the work queued
  /// before them, not after) and writes their bytes to `out`.
  virtual mp_status collect(uint64_t ticket, void *out);
  /// Sets `data` to the `bytes` of `tensor` where the compiled code can read
  /// them: the tensor's own data (also when it is the backend's memory, a
  /// result of an earlier call), or a copy to release() after the call.
  virtual mp_status stage(const mp_tensor &tensor, size_t bytes,
                          void **data) = 0;
  /// Frees a buffer that the compiled code allocated (a result) or that
  /// stage() copied.
  virtual void release(void *allocated) = 0;

private:
  /// readBack's copies by ticket, for the default collect().
  std::vector<std::pair<uint64_t, std::vector<char>>> readBacks;
  uint64_t lastTicket = 0;
};

/// mp_entry_call; unless `wait`, it may return while the call's device work
/// is queued (Backend::invoke), and the results stay unread on the host.
mp_status callEntry(mp_entry *entry, const mp_tensor *args, int32_t numArgs,
                    mp_tensor *results, int32_t numResults, bool wait);
/// The backend that runs `entry`.
Backend &backendOf(mp_entry *entry);

/// Frees an owned tensor's data: a buffer of the CUDA backend's pool (a
/// result handed over by mp_entry_call) goes back to the pool, anything else
/// to free().
void freeTensorData(void *data);

std::unique_ptr<Backend> createCpuBackend();
std::unique_ptr<Backend> createCudaBackend();
/// Loads the driver and opens the device (once per process); sets
/// `device` to its description or fails with why not.
mp_status probeCuda(std::string &device);

/// What the CUDA libraries' ops (CudaLibraries.cpp) use of the CUDA
/// backend's connection to the driver.
namespace cuda {
/// The backend's stream, or null if the driver is unusable or an earlier
/// call of this entry call failed (nothing more may run).
void *activeStream();
/// Records the failure of this entry call (the first one wins).
void recordFailure(const std::string &message);
/// Marks the start of `what`'s work on the stream (for the profile and for
/// messages).
void startLaunch(const std::string &what);
/// Ends what startLaunch() started: in blocking mode (MP_CUDA_SYNC or
/// MP_CUDA_PROFILE) waits for it, so that its time and its failure are its
/// own; otherwise returns at once.
void finishLaunch();
/// Whether the work put on the stream so far is done: 1 done, 0 still
/// running, -1 failed (the failure is recorded) or nothing may run.
int queryStream();
/// Forgets the device time of the last call (mp_cuda_last_call_ms): an
/// entry call starts, on whichever backend.
void forgetCallTime();
} // namespace cuda

/// The world of a data-parallel run (Communicator.cpp) as the device
/// collectives see it. Each function joins the world on first use and ends
/// every rank if joining fails.
namespace world {
int32_t rank();
int32_t size();
/// Copies `bytes` at `data` from rank 0 to every rank; ends every rank if
/// that fails.
void broadcast(void *data, size_t bytes);
/// How long a collective waits for every rank ($MP_COLLECTIVE_TIMEOUT).
double timeout();
/// Ends every rank: "mp: error: rank R of N: MESSAGE".
[[noreturn]] void abort(const std::string &message);
/// This process's rank among the ranks on its machine as the launcher
/// announces it, or -1.
int32_t launcherLocalRank();
/// "all-reduce of COUNT DTYPE values" (messages of failed collectives).
std::string describeAllReduce(int64_t count, int32_t dtype);
} // namespace world

/// Resolves entry points of a library loaded with dlopen into function
/// pointers, remembering the first one that is missing.
class SymbolResolver {
public:
  explicit SymbolResolver(void *lib) : lib(lib) {}
  template <typename Fn> void operator()(const char *name, Fn &slot) {
    slot = reinterpret_cast<Fn>(dlsym(lib, name));
    if (!slot && !missing)
      missing = name;
  }
  /// The first missing symbol, or null.
  const char *missing = nullptr;

private:
  void *lib;
};

/// Opens the shared library `what` (for messages: "cuBLASLt") with dlopen
/// `flags` (RTLD_NOW and these) from the path in `envVar` if it is set, else
/// by each of `sonames` from the dynamic loader's path, then from each of
/// `dirs`; null with `error` naming the loader's path and `places` (how the
/// message describes `dirs`) if none loads.
void *openLibrary(const std::string &what, const char *envVar,
                  const std::vector<std::string> &sonames,
                  const std::vector<std::string> &dirs,
                  const std::vector<std::string> &places, int flags,
                  std::string &error);

/// Appends the directories that match the glob `pattern`, in order.
void appendGlob(const std::string &pattern, std::vector<std::string> &dirs);

/// The directory this runtime library was loaded from, with a trailing '/'
/// (empty if unknown): where its plugins and the libraries shipped with it
/// are.
std::string runtimeDirectory();

/// Opens the shared library `what` (for messages: "cuBLASLt") from the path
/// in `envVar` if it is set, else by each of `sonames` from the dynamic
/// loader's path, the CUDA toolkit (`$CUDA_HOME`, /usr/local/cuda) and the
/// NVIDIA wheels of Python environments (`nvidia/<wheelDir>` in
/// site-packages of `$VIRTUAL_ENV`, `$CONDA_PREFIX`, ~/.local, /usr/local,
/// /usr); null with `error` listing where it looked if none loads.
void *openCudaLibrary(const std::string &what, const char *envVar,
                      const std::vector<std::string> &sonames,
                      const std::vector<std::string> &wheelDirs,
                      std::string &error);

/// dlopen of a compiled CPU module with `flags` (RTLD_LOCAL added), and of
/// the OpenMP runtime first if the module needs it; null with `error` if
/// either cannot be loaded.
void *openModule(const std::string &path, int flags, std::string &error);

} // namespace mp_runtime

#endif // MP_RUNTIME_INTERNAL_H
