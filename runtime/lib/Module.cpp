//===- Module.cpp - Loading modules and calling entries ---------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <map>
#include <set>

using namespace mp_runtime;

struct mp_entry {
  std::string name;
  void *fn = nullptr;
  mp_runtime::Backend *backend = nullptr;
  std::vector<mp_value_info> args, results;
  /// Bytes copied out of call buffers into results since the load: of
  /// mp.updates results (state), of the others.
  uint64_t copiedStateBytes = 0, copiedOtherBytes = 0;
};

struct mp_module {
  std::string backendName;
  std::unique_ptr<mp_runtime::Backend> backend;
  std::map<std::string, std::unique_ptr<mp_entry>> entries;
  bool dataParallel = false;
};

/// Compiled modules call functions of this library (memrefCopy, the CUDA
/// backend's mgpu* functions) without linking it: make its symbols global
/// even when the process loaded it with RTLD_LOCAL (Python's ctypes does).
static void exportRuntimeSymbols() {
  static bool done = [] {
    Dl_info info;
    if (dladdr(reinterpret_cast<void *>(&mp_module_load), &info) &&
        info.dli_fname)
      dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD | RTLD_GLOBAL);
    return true;
  }();
  (void)done;
}

extern "C" mp_status mp_backend_probe(const char *backend, char *buf,
                                      size_t size) {
  std::string device;
  if (std::strcmp(backend, "cpu") == 0)
    device = "the host CPU";
  else if (std::strcmp(backend, "cuda") != 0)
    return fail(MP_ERROR_NOT_FOUND, std::string("unknown backend '") + backend +
                                        "' (available: cpu, cuda)");
  else if (mp_status status = probeCuda(device))
    return status;
  copyOut(device, buf, size);
  return MP_OK;
}

/// The backend a module was compiled for (its `_mp_backend`), or "cpu" for
/// modules without one.
static mp_status findModuleBackend(const char *path, std::string &backend) {
  std::string error;
  void *handle = openModule(path, RTLD_LAZY, error);
  if (!handle)
    return fail(MP_ERROR_NOT_FOUND, error);
  auto *name = static_cast<const char *>(dlsym(handle, "_mp_backend"));
  backend = name ? name : "cpu";
  dlclose(handle);
  return MP_OK;
}

/// The extensions in `features` (LLVM's names, comma-separated, as the
/// compiler writes `_mp_cpu_features`) that the CPU running this lacks,
/// comma-separated; a name this runtime does not know counts as lacking.
static std::string missingCpuFeatures(const char *features) {
  struct Known {
    const char *name;
    bool present;
  };
#if defined(__x86_64__)
  __builtin_cpu_init();
  const Known known[] = {
#define MP_CPU_FEATURE(LLVM_NAME, SUPPORTS_NAME)                               \
  {LLVM_NAME, __builtin_cpu_supports(SUPPORTS_NAME) != 0},
#include "mp/Runtime/CpuFeatures.def"
  };
#else
  const Known known[] = {{"", true}};
#endif
  std::string missing;
  for (const char *start = features; *start;) {
    const char *end = std::strchr(start, ',');
    std::string name(start, end ? end - start : std::strlen(start));
    start = end ? end + 1 : start + name.size();
    bool present = false;
    for (const Known &feature : known)
      present |= name == feature.name && feature.present;
    if (!present && !name.empty())
      missing += (missing.empty() ? "" : ", ") + name;
  }
  return missing;
}

extern "C" mp_status mp_module_load(const char *path, const char *backend,
                                    mp_module **out) {
  *out = nullptr;
  std::string chosen;
  if (std::strcmp(backend, "auto") == 0) {
    exportRuntimeSymbols();
    if (mp_status status = findModuleBackend(path, chosen))
      return status;
    backend = chosen.c_str();
  }
  auto module = std::make_unique<mp_module>();
  if (std::strcmp(backend, "cpu") == 0)
    module->backend = createCpuBackend();
  else if (std::strcmp(backend, "cuda") == 0)
    module->backend = createCudaBackend();
  else
    return fail(MP_ERROR_NOT_FOUND, std::string("unknown backend '") + backend +
                                        "' (available: auto, cpu, cuda)");
  exportRuntimeSymbols();
  if (mp_status status = module->backend->load(path))
    return status;
  // Modules name the backend they were compiled for.
  if (auto *target =
          static_cast<const char *>(module->backend->lookup("_mp_backend")))
    if (std::strcmp(target, backend) != 0)
      return fail(MP_ERROR_MISMATCH, std::string("module '") + path +
                                         "' was compiled for the " + target +
                                         " backend, not " + backend +
                                         " (--backend " + target + ")");
  // Code for extensions this CPU lacks would die of SIGILL.
  if (auto *features = static_cast<const char *>(
          module->backend->lookup("_mp_cpu_features"))) {
    std::string missing = missingCpuFeatures(features);
    auto *cpu =
        static_cast<const char *>(module->backend->lookup("_mp_target_cpu"));
    if (!missing.empty())
      return fail(MP_ERROR_MISMATCH,
                  std::string("module '") + path +
                      "' was compiled for the CPU " + (cpu ? cpu : "?") +
                      " and needs " + missing +
                      ", which this CPU lacks: compile it again with mp-run "
                      "--target-cpu x86-64-v3 (or this machine's CPU)");
  }
  module->backendName = backend;
  module->dataParallel = module->backend->lookup("_mp_data_parallel");
  *out = module.release();
  return MP_OK;
}

extern "C" const char *mp_module_backend(const mp_module *module) {
  return module->backendName.c_str();
}

extern "C" int32_t mp_module_is_data_parallel(const mp_module *module) {
  return module->dataParallel;
}

extern "C" void mp_module_unload(mp_module *module) { delete module; }

extern "C" mp_status mp_module_find_entry(mp_module *module, const char *name,
                                          mp_entry **out) {
  *out = nullptr;
  auto it = module->entries.find(name);
  if (it != module->entries.end()) {
    *out = it->second.get();
    return MP_OK;
  }
  auto entry = std::make_unique<mp_entry>();
  entry->name = name;
  entry->backend = module->backend.get();
  entry->fn = module->backend->lookup(std::string("_mp_entry_") + name);
  auto *sig = static_cast<const char *>(
      module->backend->lookup(std::string("_mp_sig_") + name));
  if (!entry->fn || !sig)
    return fail(MP_ERROR_NOT_FOUND,
                std::string("no entry point '") + name + "' in the module");
  if (mp_status status = parseSignature(sig, entry->args, entry->results))
    return status;
  *out = entry.get();
  module->entries[name] = std::move(entry);
  return MP_OK;
}

extern "C" int32_t mp_entry_num_args(const mp_entry *entry) {
  return static_cast<int32_t>(entry->args.size());
}
extern "C" int32_t mp_entry_num_results(const mp_entry *entry) {
  return static_cast<int32_t>(entry->results.size());
}
extern "C" const mp_value_info *mp_entry_arg(const mp_entry *entry,
                                             int32_t index) {
  return index >= 0 && index < mp_entry_num_args(entry) ? &entry->args[index]
                                                        : nullptr;
}
extern "C" const mp_value_info *mp_entry_result(const mp_entry *entry,
                                                int32_t index) {
  return index >= 0 && index < mp_entry_num_results(entry)
             ? &entry->results[index]
             : nullptr;
}

/// Whether the `count` integers of `tensor` (which indexes a dimension of
/// `bound`) all lie in [0, bound); the error names the first that does
/// not.
static mp_status checkBound(const std::string &entryName, int32_t index,
                            const mp_tensor &tensor, int64_t bound,
                            size_t count) {
  for (size_t i = 0; i < count; ++i) {
    int64_t value;
    switch (tensor.dtype) {
    case MP_I64:
      value = static_cast<const int64_t *>(tensor.data)[i];
      break;
    case MP_I32:
      value = static_cast<const int32_t *>(tensor.data)[i];
      break;
    case MP_I8:
      value = static_cast<const int8_t *>(tensor.data)[i];
      break;
    default:
      return MP_OK;
    }
    if (value < 0 || value >= bound)
      return fail(MP_ERROR_MISMATCH,
                  "entry '" + entryName + "' argument #" +
                      std::to_string(index) + ": element " + std::to_string(i) +
                      " is " + std::to_string(value) + ", outside [0, " +
                      std::to_string(bound) + "): it indexes a dimension of " +
                      std::to_string(bound));
  }
  return MP_OK;
}

mp_status mp_runtime::checkArgument(const std::string &entryName, int32_t index,
                                    const mp_tensor &tensor,
                                    const mp_value_info &info, size_t *bytes) {
  bool ok = tensor.dtype == info.dtype &&
            (info.is_scalar ? tensor.rank == 0 : tensor.rank == info.rank);
  for (int32_t i = 0; ok && !info.is_scalar && i < info.rank; ++i)
    ok = info.shape[i] < 0 || info.shape[i] == tensor.shape[i];
  if (ok) {
    // Sizes the signature leaves dynamic come from the caller: the compiled
    // code indexes that many elements.
    size_t size = 0;
    mp_status status = checkShape(tensor.dtype, tensor.rank, tensor.shape, size,
                                  "entry '" + entryName + "' argument #" +
                                      std::to_string(index) + ": ");
    if (bytes)
      *bytes = size;
    if (status == MP_OK && info.bound > 0)
      status = checkBound(entryName, index, tensor, info.bound,
                          size / mp_dtype_size(tensor.dtype));
    return status;
  }
  return fail(MP_ERROR_MISMATCH,
              "entry '" + entryName + "' argument #" + std::to_string(index) +
                  ": expected " + formatValueInfo(info, /*withRole=*/false) +
                  ", got " +
                  formatShape(tensor.dtype, tensor.rank, tensor.shape));
}

namespace {
/// A ranked memref descriptor as the compiled code sees it: allocated and
/// aligned pointers, offset, sizes, strides.
struct Descriptor {
  std::vector<int64_t> words;

  static size_t numWords(int32_t rank) { return 3 + 2 * rank; }

  /// The descriptor of `tensor` whose data the compiled code sees at `data`.
  static void fill(int64_t *words, const mp_tensor &tensor, void *data) {
    words[0] = reinterpret_cast<intptr_t>(data);
    words[1] = reinterpret_cast<intptr_t>(data);
    words[2] = 0;
    int64_t stride = 1;
    for (int32_t i = tensor.rank - 1; i >= 0; --i) {
      words[3 + i] = tensor.shape[i];
      words[3 + tensor.rank + i] = stride;
      stride *= tensor.shape[i];
    }
  }
};

/// The deallocation pipeline hands results to the caller; MLIR marks
/// pointers into globals with this value.
constexpr intptr_t kGlobalMarker = 0xdeadbeef;
} // namespace

/// Whether the memref described by `words` (of rank `rank`) is dense and
/// row-major from its aligned pointer on (sizes of 1 take any stride).
static bool isDense(const int64_t *words, int32_t rank) {
  int64_t stride = 1;
  for (int32_t d = rank - 1; d >= 0; --d) {
    if (words[3 + d] != 1 && words[3 + rank + d] != stride)
      return false;
    stride *= words[3 + d];
  }
  return true;
}

/// Copies a result out of its descriptor into an owned, dense tensor: one
/// memcpy if the result is dense, else element by element.
static mp_status takeResult(const int64_t *words, const mp_value_info &info,
                            mp_tensor &out) {
  std::memset(&out, 0, sizeof(out));
  if (mp_status status =
          mp_tensor_alloc(info.dtype, info.rank, words + 3, &out))
    return status;
  size_t elem = mp_dtype_size(info.dtype);
  const char *base = reinterpret_cast<const char *>(words[1]) + words[2] * elem;
  int64_t count = mp_tensor_num_elements(&out);
  char *dst = static_cast<char *>(out.data);
  if (isDense(words, info.rank)) {
    if (count)
      std::memcpy(dst, base, count * elem);
    return MP_OK;
  }
  // Walk the strided source in row-major order.
  std::vector<int64_t> index(info.rank, 0);
  for (int64_t n = 0; n < count; ++n) {
    int64_t offset = 0;
    for (int32_t d = 0; d < info.rank; ++d)
      offset += index[d] * words[3 + info.rank + d];
    std::memcpy(dst + n * elem, base + offset * elem, elem);
    for (int32_t d = info.rank - 1; d >= 0; --d) {
      if (++index[d] < words[3 + d])
        break;
      index[d] = 0;
    }
  }
  return MP_OK;
}

/// The tensor that owns the result buffer described by `words` itself (no
/// copy): for a dense buffer that starts at its allocation.
static void adoptResult(const int64_t *words, const mp_value_info &info,
                        mp_tensor &out) {
  std::memset(&out, 0, sizeof(out));
  out.dtype = info.dtype;
  out.rank = info.rank;
  for (int32_t d = 0; d < info.rank; ++d)
    out.shape[d] = words[3 + d];
  out.data = reinterpret_cast<void *>(words[1]);
  out.owned = 1;
}

/// Whether the call wrote `info`, an mp.updates result, into the buffer of
/// the caller's argument it updates (mp-update-state-in-place), densely.
static bool isUpdatedInPlace(const mp_value_info &info, const int64_t *words,
                             const mp_tensor *args, int32_t numArgs) {
  return info.role == MP_ROLE_UPDATES && info.index >= 0 &&
         info.index < numArgs &&
         words[0] == reinterpret_cast<intptr_t>(args[info.index].data) &&
         words[1] == words[0] && words[2] == 0 && isDense(words, info.rank);
}

/// A tensor that views the caller's argument `arg` (not owned), the
/// result `info` that the call wrote into it.
static void viewArgument(const mp_value_info &info, const mp_tensor &arg,
                         mp_tensor &out) {
  std::memset(&out, 0, sizeof(out));
  out.dtype = info.dtype;
  out.rank = info.rank;
  for (int32_t d = 0; d < info.rank; ++d)
    out.shape[d] = arg.shape[d];
  out.data = arg.data;
}

extern "C" void mp_entry_copied_bytes(const mp_entry *entry, uint64_t *state,
                                      uint64_t *other) {
  *state = entry->copiedStateBytes;
  *other = entry->copiedOtherBytes;
}

mp_status Backend::readBack(const std::vector<Piece> &pieces,
                            uint64_t &ticket) {
  if (mp_status status = wait())
    return status;
  std::vector<char> bytes;
  for (const Piece &piece : pieces) {
    auto *data = static_cast<const char *>(piece.data);
    bytes.insert(bytes.end(), data, data + piece.bytes);
  }
  if (bytes.size() > kMaxReadBackBytes)
    return fail(MP_ERROR_UNSUPPORTED,
                "reading back " + std::to_string(bytes.size()) +
                    " bytes at once; at most " +
                    std::to_string(kMaxReadBackBytes) + " are supported");
  ticket = ++lastTicket;
  readBacks.emplace_back(ticket, std::move(bytes));
  return MP_OK;
}

mp_status Backend::collect(uint64_t ticket, void *out) {
  for (auto it = readBacks.begin(); it != readBacks.end(); ++it) {
    if (it->first != ticket)
      continue;
    std::memcpy(out, it->second.data(), it->second.size());
    readBacks.erase(it);
    return MP_OK;
  }
  return fail(MP_ERROR_MISMATCH,
              "no read-back #" + std::to_string(ticket) + " to collect");
}

Backend &mp_runtime::backendOf(mp_entry *entry) { return *entry->backend; }

extern "C" mp_status mp_entry_call(mp_entry *entry, const mp_tensor *args,
                                   int32_t num_args, mp_tensor *results,
                                   int32_t num_results) {
  return callEntry(entry, args, num_args, results, num_results,
                   /*wait=*/true);
}

mp_status mp_runtime::callEntry(mp_entry *entry, const mp_tensor *args,
                                int32_t num_args, mp_tensor *results,
                                int32_t num_results, bool wait) {
  cuda::forgetCallTime();
  if (num_args != mp_entry_num_args(entry) ||
      num_results != mp_entry_num_results(entry))
    return fail(MP_ERROR_MISMATCH,
                "entry '" + entry->name + "' takes " +
                    std::to_string(entry->args.size()) + " arguments and " +
                    std::to_string(entry->results.size()) + " results, got " +
                    std::to_string(num_args) + " and " +
                    std::to_string(num_results));
  for (const mp_value_info &info : entry->results)
    if (info.is_scalar)
      return fail(MP_ERROR_UNSUPPORTED, "entry '" + entry->name +
                                            "' returns a scalar; only "
                                            "tensor results are supported");
  std::vector<std::vector<int64_t>> argWords(num_args);
  std::vector<void *> packed;
  size_t resultWords = 0;
  for (const mp_value_info &info : entry->results)
    resultWords += Descriptor::numWords(info.rank);
  std::vector<int64_t> resultStorage(resultWords + 1, 0);
  if (num_results)
    packed.push_back(resultStorage.data());
  Backend &backend = *entry->backend;
  // The arguments where the compiled code reads them, and the copies made.
  std::set<intptr_t> inputs, staged;
  auto releaseStaged = [&] {
    for (intptr_t copy : staged)
      backend.release(reinterpret_cast<void *>(copy));
  };
  for (int32_t i = 0; i < num_args; ++i) {
    const mp_value_info &info = entry->args[i];
    size_t bytes = 0;
    void *data = nullptr;
    mp_status status = checkArgument(entry->name, i, args[i], info, &bytes);
    if (status == MP_OK)
      status = backend.stage(args[i], bytes, &data);
    if (status != MP_OK) {
      releaseStaged();
      return status;
    }
    inputs.insert(reinterpret_cast<intptr_t>(data));
    if (data != args[i].data)
      staged.insert(reinterpret_cast<intptr_t>(data));
    if (info.is_scalar) {
      packed.push_back(data);
      continue;
    }
    argWords[i].resize(Descriptor::numWords(info.rank));
    Descriptor::fill(argWords[i].data(), args[i], data);
    packed.push_back(argWords[i].data());
  }
  mp_status status = backend.invoke(entry->fn, packed.data(), wait);

  // A result buffer that the call allocated for it alone is handed over
  // (the tensor owns it: no copy, and on the GPU it stays in device memory
  // for the next call); the others are copied before any buffer is freed,
  // since results may share one.
  std::map<intptr_t, int> resultsOf;
  const int64_t *words = resultStorage.data();
  for (const mp_value_info &info : entry->results) {
    ++resultsOf[words[0]];
    words += Descriptor::numWords(info.rank);
  }
  std::set<intptr_t> owned;
  words = resultStorage.data();
  for (int32_t i = 0; i < num_results; ++i) {
    const mp_value_info &info = entry->results[i];
    intptr_t allocated = words[0];
    bool fromCall =
        allocated && allocated != kGlobalMarker && !inputs.count(allocated);
    if (status == MP_OK && fromCall && resultsOf[allocated] == 1 &&
        words[1] == allocated && words[2] == 0 && isDense(words, info.rank)) {
      adoptResult(words, info, results[i]);
    } else if (status == MP_OK &&
               isUpdatedInPlace(info, words, args, num_args)) {
      viewArgument(info, args[info.index], results[i]);
    } else {
      if (status == MP_OK) {
        // The host copies this result: the call's work must be done.
        if (!wait) {
          status = backend.wait();
          wait = true;
        }
        if (status == MP_OK) {
          status = takeResult(words, info, results[i]);
          (info.role == MP_ROLE_UPDATES ? entry->copiedStateBytes
                                        : entry->copiedOtherBytes) +=
              mp_tensor_num_bytes(&results[i]);
        }
        if (status != MP_OK)
          for (int32_t j = 0; j < i; ++j)
            mp_tensor_release(&results[j]);
      }
      if (fromCall)
        owned.insert(allocated);
    }
    words += Descriptor::numWords(info.rank);
  }
  for (intptr_t allocated : owned)
    backend.release(reinterpret_cast<void *>(allocated));
  releaseStaged();
  return status;
}
