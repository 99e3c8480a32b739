//===- CudaBackend.cpp - Running compiled modules on NVIDIA GPUs -*- C++
//-*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// The CUDA backend loads the driver with dlopen (nothing here links libcuda
// or cudart, so every binary starts on a machine without a driver) and
// provides what the host code of mp-lower-to-gpu calls:
//
//  - the `mgpu*` functions of MLIR's GPU-to-LLVM lowering (module load from
//    the embedded binary, kernel lookup, streams, launches);
//  - `_mlir_memref_to_llvm_{alloc,aligned_alloc,free}`, which the host
//    code's buffers go through (mp-lower-to-gpu lowers memref.alloc with
//    generic allocation functions): CUDA managed memory, which kernels and
//    the host code between them both address, from a caching pool (a freed
//    block is kept for the next allocation of its size class, so a training
//    step allocates from the driver only in its first call and its pages
//    stay where the kernels left them).
//
// Kernels and library calls run on one stream of the backend: the host
// code's stream create/destroy calls reuse it. The host code launches
// asynchronously and waits for the stream only before it reads what the
// kernels wrote (mp-gpu-async-launches); it returns with its last kernels
// queued, and the backend waits for them after the call, unless the caller
// (a trainer's mp_trainer_launch) lets the next call queue behind them and
// reads what it needs through read-backs: stream-ordered copies into pinned
// memory, each with an event to wait for. With MP_CUDA_SYNC=1 (or
// MP_CUDA_PROFILE) every launch is waited for at once, so that a failing
// kernel is named and each kernel is timed.
//
// Those entry points cannot return errors: the first failing driver call is
// recorded (`cuLaunchKernel(mlp_grad_kernel_3): CUDA_ERROR_...`), every later
// launch is skipped, and the backend turns the record into the call's error.
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <dlfcn.h>
#include <map>
#include <vector>

using namespace mp_runtime;

/// cuda.h's CUmemLocation (a device: CU_MEM_LOCATION_TYPE_DEVICE and its
/// ordinal), passed by value. Outside the anonymous namespace and under
/// cuda.h's tag, so that the function type UBSan's -fsanitize=function
/// checks calls against is the driver's (the fake driver is instrumented).
struct CUmemLocation_st {
  int type;
  int id;
};
using CUmemLocation = CUmemLocation_st;

extern "C" void *mgpuStreamCreate();

namespace {
// The driver API's types, as cuda.h declares them (the ABI is stable).
using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = void *;
using CUmodule = void *;
using CUfunction = void *;
using CUstream = void *;
using CUevent = void *;
constexpr int kComputeCapabilityMajor = 75, kComputeCapabilityMinor = 76,
              kMaxSharedMemoryPerBlockOptin = 97;
constexpr int kFuncMaxDynamicSharedSizeBytes = 8;
/// The shared memory every kernel may take without opting in.
constexpr int32_t kDefaultSharedMemoryLimit = 48 * 1024;
constexpr unsigned kMemAttachGlobal = 1;
constexpr int kMemLocationTypeDevice = 1;
constexpr CUresult kInvalidValue = 1, kNoBinaryForGpu = 209,
                   kUnsupportedPtxVersion = 222, kNotReady = 600;

/// The driver entry points the backend uses, resolved from libcuda.
struct Driver {
  CUresult (*cuInit)(unsigned);
  CUresult (*cuDeviceGetCount)(int *);
  CUresult (*cuDeviceGet)(CUdevice *, int);
  CUresult (*cuDeviceGetName)(char *, int, CUdevice);
  CUresult (*cuDeviceGetAttribute)(int *, int, CUdevice);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice);
  CUresult (*cuCtxSetCurrent)(CUcontext);
  CUresult (*cuModuleLoadData)(CUmodule *, const void *);
  CUresult (*cuModuleUnload)(CUmodule);
  CUresult (*cuModuleGetFunction)(CUfunction *, CUmodule, const char *);
  CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned,
                             unsigned, unsigned, unsigned, CUstream, void **,
                             void **);
  CUresult (*cuFuncSetAttribute)(CUfunction, int, int);
  CUresult (*cuStreamCreate)(CUstream *, unsigned);
  CUresult (*cuStreamSynchronize)(CUstream);
  CUresult (*cuStreamQuery)(CUstream);
  CUresult (*cuMemAllocManaged)(CUdeviceptr *, size_t, unsigned);
  CUresult (*cuMemFree)(CUdeviceptr);
  CUresult (*cuGetErrorName)(CUresult, const char **);
  /// Optional (drivers for CUDA 12.2 and newer): moves managed pages ahead
  /// of the kernels that read them.
  CUresult (*cuMemPrefetchAsync)(CUdeviceptr, size_t, CUmemLocation, unsigned,
                                 CUstream);
  /// Optional: pinned host memory, and the copy engine's copies from it
  /// (staged arguments; without them, the host writes managed memory).
  CUresult (*cuMemHostAlloc)(void **, size_t, unsigned);
  CUresult (*cuMemcpyHtoDAsync)(CUdeviceptr, const void *, size_t, CUstream);
  CUresult (*cuMemcpyDtoHAsync)(void *, CUdeviceptr, size_t, CUstream);
  /// Optional: events, which time each call on the device
  /// (mp_cuda_last_call_ms).
  CUresult (*cuEventCreate)(CUevent *, unsigned);
  CUresult (*cuEventRecord)(CUevent, CUstream);
  CUresult (*cuEventElapsedTime)(float *, CUevent, CUevent);
  /// Optional: waiting for part of the stream's work (calls that return
  /// with their work queued).
  CUresult (*cuEventQuery)(CUevent);
  CUresult (*cuEventSynchronize)(CUevent);
  /// Optional: a second stream that stages arguments beside the kernels.
  CUresult (*cuStreamWaitEvent)(CUstream, CUevent, unsigned);
};

/// The least pinned host memory allocated at once for staged arguments.
constexpr size_t kMinPinnedBlock = size_t(4) << 20;

/// The process's one connection to the driver: loaded on first use.
struct Cuda {
  Driver api{};
  bool loaded = false;
  /// Why the driver or the device cannot be used (empty: usable).
  std::string unusable;
  CUcontext context = nullptr;
  std::string deviceName;
  int ordinal = 0, major = 0, minor = 0;
  /// The first failure since the last takeError(), as one line, and its
  /// result code.
  std::string pending;
  CUresult pendingResult = 0;
  /// Kernel names, for messages: "NAME in module #N" (N counts the GPU
  /// modules in the order they were loaded, the order of the IR's
  /// gpu.binary ops).
  std::map<CUfunction, std::string> kernels;
  /// The dynamic shared memory each kernel was allowed beyond 48 KiB.
  std::map<CUfunction, int32_t> sharedMemoryAllowed;
  /// The most shared memory a block gets on the device (0: unknown).
  int maxSharedMemoryPerBlock = 0;
  std::map<CUmodule, int> moduleNumbers;
  /// The stream every launch uses.
  CUstream stream = nullptr;
  /// Whether each launch is waited for (MP_CUDA_SYNC or MP_CUDA_PROFILE).
  bool blocking = false;
  /// With MP_CUDA_PROFILE set: per kernel (or library call) its launches
  /// and their host time from the launch to the end of its work, the first
  /// launch's apart (it loads the kernel: lazy module loading, a library's
  /// setup), printed at exit.
  bool profile = false;
  struct KernelTime {
    double total = 0, first = 0;
    int64_t launches = 0;
  };
  std::map<std::string, KernelTime> kernelTimes;
  std::string lastLaunch;
  std::chrono::steady_clock::time_point launchedAt;
  ~Cuda() { printProfile(); }
  void printProfile();
  /// The caching pool: block sizes by address, free blocks by size class
  /// with the number of the call that freed them (see `calls`); bytes in
  /// blocks given out now and at most so far, and bytes held from the
  /// driver.
  std::map<void *, size_t> blockSizes;
  struct FreeBlock {
    void *address;
    uint64_t freedIn;
  };
  std::multimap<size_t, FreeBlock> freeBlocks;
  size_t inUse = 0, peakInUse = 0, reserved = 0;
  /// Calls counted as they start: the number of the call under way, or of
  /// the last one; the calls up to `callsDone` are known to be done on the
  /// device. A block freed in call N (or after it, before the next) may
  /// still be used by N's kernels until then.
  uint64_t calls = 0, callsDone = 0;
  /// The calls that returned with their work queued, oldest first, each
  /// with events before and after its work; spare events for the next
  /// ones; the device time of those done (ms) and their number.
  struct QueuedCall {
    uint64_t number;
    CUevent start, end;
  };
  std::deque<QueuedCall> queuedCalls;
  std::vector<CUevent> spareEvents;
  CUevent nextStart = nullptr;
  double queuedMs = 0;
  int64_t queuedTimed = 0;
  /// Pinned host blocks that the arguments a call stages pass through on
  /// their way to the device: their bytes, how many the call that used them
  /// last (its number) took. Kept for the process, like the pool's blocks.
  struct PinnedBlock {
    char *base;
    size_t size, used;
    uint64_t call;
  };
  std::vector<PinnedBlock> pinned;
  /// The stream that stages arguments (the copy engine's, beside the
  /// kernels), once made; whether the next call's kernels must wait for
  /// copies on it, and the event they wait for.
  CUstream copyStream = nullptr;
  bool copiesToWaitFor = false;
  CUevent staged = nullptr;
  /// Pinned slots of Backend::kMaxReadBackBytes that read-backs copy into,
  /// each with the event after its copies and its ticket (0: free).
  struct ReadBackSlot {
    char *host;
    CUevent copied;
    uint64_t ticket;
    size_t bytes;
  };
  std::vector<ReadBackSlot> readBackSlots;
  uint64_t lastTicket = 0;
  /// Events on the stream when a call starts and at each of its waits (the
  /// last one ends it), and the device time of the last call in ms (-1:
  /// none, or no events).
  CUevent callStart = nullptr, callEnd = nullptr;
  bool callEnded = false;
  float lastCallMs = -1;

  /// Records the start of a call's device work on the stream, if the
  /// driver has events.
  void startCall() {
    callEnded = false;
    if (!api.cuEventCreate || !stream)
      return;
    if ((!callStart && api.cuEventCreate(&callStart, 0) != 0) ||
        (!callEnd && api.cuEventCreate(&callEnd, 0) != 0) ||
        api.cuEventRecord(callStart, stream) != 0)
      api.cuEventCreate = nullptr; // timing is a convenience: no more tries
  }

  /// At a wait of the call: its work so far ends there.
  void markCallEnd() {
    if (api.cuEventCreate && callStart && callEnd)
      callEnded = api.cuEventRecord(callEnd, stream) == 0;
  }

  /// After the call (the stream idle): its device time.
  void finishCall() {
    float ms = 0;
    if (callEnded && pending.empty() && api.cuEventCreate &&
        api.cuEventElapsedTime(&ms, callStart, callEnd) == 0)
      lastCallMs = ms;
  }

  /// Whether calls may return with their work queued: the driver has what
  /// waiting for part of it takes, and launches are not waited for one by
  /// one anyway.
  bool canQueue() const {
    return api.cuEventCreate && api.cuEventQuery && api.cuEventSynchronize &&
           api.cuMemcpyDtoHAsync && api.cuMemHostAlloc && !blocking;
  }

  /// Whether the work before `event` is done: 1 done, 0 not yet, -1 failed
  /// (recorded).
  int query(CUevent event, const char *what) {
    CUresult result = api.cuEventQuery(event);
    if (result == kNotReady)
      return 0;
    return check(result, what) ? 1 : -1;
  }

  /// An event for the next queued call (null, with the failure recorded,
  /// if none can be made).
  CUevent takeEvent() {
    CUevent event = nullptr;
    if (!spareEvents.empty()) {
      event = spareEvents.back();
      spareEvents.pop_back();
    } else if (!check(api.cuEventCreate(&event, 0), "cuEventCreate")) {
      return nullptr;
    }
    return event;
  }

  /// The oldest queued call is done: its device time counts, its events
  /// are spare.
  void retireQueuedCall() {
    QueuedCall &call = queuedCalls.front();
    float ms = 0;
    if (api.cuEventElapsedTime(&ms, call.start, call.end) == 0) {
      queuedMs += ms;
      ++queuedTimed;
    }
    callsDone = call.number;
    spareEvents.push_back(call.start);
    spareEvents.push_back(call.end);
    queuedCalls.pop_front();
  }

  /// Moves `callsDone` past the queued calls whose work is done.
  void updateCallsDone() {
    while (!queuedCalls.empty() &&
           query(queuedCalls.front().end, "cuEventQuery (a queued call)") == 1)
      retireQueuedCall();
  }

  /// `bytes` of pinned memory for the call about to start (256-byte
  /// aligned), from a block that no queued call still copies from; null
  /// where the driver has none to give: the caller writes managed memory
  /// instead (and later calls do not ask again).
  void *takePinned(size_t bytes) {
    if (!api.cuMemHostAlloc || !api.cuMemcpyHtoDAsync)
      return nullptr;
    size_t aligned = (bytes + 255) / 256 * 256;
    uint64_t next = calls + 1;
    updateCallsDone();
    for (PinnedBlock &block : pinned) {
      if (block.call <= callsDone)
        block.used = 0;
      if ((block.call <= callsDone || block.call == next) &&
          block.size - block.used >= aligned) {
        block.call = next;
        block.used += aligned;
        return block.base + block.used - aligned;
      }
    }
    size_t size = std::max(aligned, kMinPinnedBlock);
    void *base = nullptr;
    if (api.cuMemHostAlloc(&base, size, 0) != 0) {
      api.cuMemHostAlloc = nullptr;
      return nullptr;
    }
    pinned.push_back({static_cast<char *>(base), size, aligned, next});
    return base;
  }

  /// The stream that staging copies go on: the copy stream where the
  /// driver lets kernels wait for it (made on first use), else the
  /// kernels' own.
  CUstream stagingStream() {
    CUstream kernels = mgpuStreamCreate();
    if (!copyStream && kernels && api.cuStreamWaitEvent && canQueue()) {
      constexpr unsigned kNonBlocking = 1; // CU_STREAM_NON_BLOCKING
      if (api.cuStreamCreate(&copyStream, kNonBlocking) != 0 ||
          api.cuEventCreate(&staged, 0) != 0) {
        copyStream = nullptr;
        api.cuStreamWaitEvent = nullptr; // no more tries
      }
    }
    return copyStream ? copyStream : kernels;
  }

  /// Before a call's kernels: they wait for its staging copies.
  void waitForStaging() {
    if (!copiesToWaitFor)
      return;
    copiesToWaitFor = false;
    if (check(api.cuEventRecord(staged, copyStream),
              "cuEventRecord (staging copies)"))
      check(api.cuStreamWaitEvent(stream, staged, 0),
            "cuStreamWaitEvent (staging copies)");
  }

  /// A read-back slot that no ticket holds (null, with the failure
  /// recorded, if there is none and none can be made).
  ReadBackSlot *freeReadBackSlot() {
    for (ReadBackSlot &slot : readBackSlots)
      if (!slot.ticket)
        return &slot;
    // A page of slots at a time.
    constexpr size_t kSlots = 16;
    void *page = nullptr;
    if (!check(
            api.cuMemHostAlloc(&page, kSlots * Backend::kMaxReadBackBytes, 0),
            "cuMemHostAlloc (read-backs)"))
      return nullptr;
    for (size_t i = 0; i < kSlots; ++i) {
      CUevent event = nullptr;
      if (!check(api.cuEventCreate(&event, 0), "cuEventCreate"))
        return nullptr;
      readBackSlots.push_back(
          {static_cast<char *>(page) + i * Backend::kMaxReadBackBytes, event, 0,
           0});
    }
    return &readBackSlots[readBackSlots.size() - kSlots];
  }

  /// Whether `data` lies in a block of the pool.
  bool isPoolMemory(const void *data) const {
    auto block = blockSizes.upper_bound(const_cast<void *>(data));
    if (block == blockSizes.begin())
      return false;
    --block;
    return static_cast<const char *>(data) <
           static_cast<const char *>(block->first) + block->second;
  }

  /// Waits for all work on the stream (which waited for the staging
  /// copies): every call is done.
  void waitForStream() {
    if (!stream)
      return;
    markCallEnd();
    // Without blocking mode the failing kernel is not known.
    check(api.cuStreamSynchronize(stream),
          blocking ? "cuStreamSynchronize"
                   : "cuStreamSynchronize (waiting for the kernels launched "
                     "since the last wait; MP_CUDA_SYNC=1 names the one that "
                     "failed)");
    while (!queuedCalls.empty())
      retireQueuedCall();
    callsDone = calls;
  }

  /// Before a call that may return with its work queued: an event at the
  /// start of its work.
  void startQueuedCall() {
    if (!nextStart)
      nextStart = takeEvent();
    if (nextStart && !check(api.cuEventRecord(nextStart, stream),
                            "cuEventRecord (a queued call)")) {
      spareEvents.push_back(nextStart);
      nextStart = nullptr;
    }
  }

  /// After a call that returns with its work queued: an event after it
  /// tells when its blocks (pinned, and freed in the pool) are idle, and
  /// with the one at its start how long it took on the device.
  void queueCall() {
    CUevent end = takeEvent();
    if (!nextStart || !end)
      return;
    if (check(api.cuEventRecord(end, stream),
              "cuEventRecord (a queued call)")) {
      queuedCalls.push_back({calls, nextStart, end});
      nextStart = nullptr;
    } else {
      spareEvents.push_back(end);
    }
  }
  void take(size_t bytes) {
    inUse += bytes;
    peakInUse = std::max(peakInUse, inUse);
  }
  /// A block of the pool for `size` bytes (host memory, with the failure
  /// recorded, if the driver has none); with `idleOnly`, one that no queued
  /// call may still use, which a copy beside the kernels may write.
  void *allocate(size_t size, bool idleOnly);

  static Cuda &get() {
    static Cuda cuda;
    return cuda;
  }

  /// "cuLaunchKernel(k): CUDA_ERROR_LAUNCH_FAILED"
  std::string describe(const std::string &call, CUresult result) {
    const char *name = nullptr;
    if (api.cuGetErrorName && api.cuGetErrorName(result, &name) == 0 && name)
      return call + ": " + name;
    // A stub or broken driver may not name its own errors.
    switch (result) {
    case 34:
      return call + ": CUDA_ERROR_STUB_LIBRARY (the toolkit's stub, not a "
                    "driver)";
    case 35:
      return call + ": CUDA_ERROR_INSUFFICIENT_DRIVER";
    case 100:
      return call + ": CUDA_ERROR_NO_DEVICE";
    default:
      return call + ": CUDA error " + std::to_string(result);
    }
  }

  /// Records a failure of `call` (the first one wins) and returns false.
  bool check(CUresult result, const std::string &call) {
    if (result == 0)
      return true;
    if (pending.empty()) {
      pending = describe(call, result);
      pendingResult = result;
    }
    return false;
  }

  /// Loads the driver and makes the device's primary context current on
  /// the calling thread; false (with `unusable` set) if it cannot.
  bool ensure();

  /// Lets `function` take `bytes` of dynamic shared memory, more than the
  /// 48 KiB a kernel takes without opting in (mp-gpu-dynamic-shared-memory's
  /// kernels); false (recorded) if the device cannot give them.
  bool allowSharedMemory(CUfunction function, int32_t bytes) {
    int32_t &allowed = sharedMemoryAllowed[function];
    if (bytes <= allowed)
      return true;
    const std::string &kernel = kernels[function];
    if (maxSharedMemoryPerBlock > 0 && bytes > maxSharedMemoryPerBlock) {
      if (pending.empty()) {
        pending = "kernel " + kernel + " needs " + std::to_string(bytes) +
                  " bytes of shared memory, more than a block gets on " +
                  deviceName + " (" + std::to_string(maxSharedMemoryPerBlock) +
                  "); compile it with smaller tiles (mp-lower-to-gpu tile-m, "
                  "tile-n)";
        pendingResult = kInvalidValue;
      }
      return false;
    }
    if (!check(api.cuFuncSetAttribute(function, kFuncMaxDynamicSharedSizeBytes,
                                      bytes),
               "cuFuncSetAttribute(" + kernel +
                   ", CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, " +
                   std::to_string(bytes) + ")"))
      return false;
    allowed = bytes;
    return true;
  }
  mp_status takeError() {
    if (pending.empty())
      return MP_OK;
    std::string message = "CUDA backend: " + pending;
    pending.clear();
    return fail(MP_ERROR_IO, message);
  }
};
} // namespace

bool Cuda::ensure() {
  static thread_local bool current = false;
  if (loaded && unusable.empty() && current)
    return true;
  if (!loaded) {
    loaded = true;
    const char *override = std::getenv("MP_CUDA_DRIVER");
    const char *path = override && *override ? override : "libcuda.so.1";
    void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
      const char *why = dlerror();
      unusable = std::string("cannot load the CUDA driver '") + path + "' (" +
                 (why ? why : "not found") +
                 "); install the NVIDIA driver or set MP_CUDA_DRIVER";
      return false;
    }
    Driver d{};
    SymbolResolver resolve(lib);
    resolve("cuInit", d.cuInit);
    resolve("cuDeviceGetCount", d.cuDeviceGetCount);
    resolve("cuDeviceGet", d.cuDeviceGet);
    resolve("cuDeviceGetName", d.cuDeviceGetName);
    resolve("cuDeviceGetAttribute", d.cuDeviceGetAttribute);
    resolve("cuDevicePrimaryCtxRetain", d.cuDevicePrimaryCtxRetain);
    resolve("cuCtxSetCurrent", d.cuCtxSetCurrent);
    resolve("cuModuleLoadData", d.cuModuleLoadData);
    resolve("cuModuleUnload", d.cuModuleUnload);
    resolve("cuModuleGetFunction", d.cuModuleGetFunction);
    resolve("cuLaunchKernel", d.cuLaunchKernel);
    resolve("cuFuncSetAttribute", d.cuFuncSetAttribute);
    resolve("cuStreamCreate", d.cuStreamCreate);
    resolve("cuStreamSynchronize", d.cuStreamSynchronize);
    resolve("cuStreamQuery", d.cuStreamQuery);
    resolve("cuMemAllocManaged", d.cuMemAllocManaged);
    resolve("cuMemFree_v2", d.cuMemFree);
    resolve("cuGetErrorName", d.cuGetErrorName);
    if (resolve.missing) {
      unusable = std::string("the CUDA driver '") + path + "' has no " +
                 resolve.missing + " (a driver for CUDA 12 or newer is needed)";
      dlclose(lib);
      return false;
    }
    d.cuMemPrefetchAsync = reinterpret_cast<decltype(d.cuMemPrefetchAsync)>(
        dlsym(lib, "cuMemPrefetchAsync_v2"));
    d.cuMemHostAlloc = reinterpret_cast<decltype(d.cuMemHostAlloc)>(
        dlsym(lib, "cuMemHostAlloc"));
    d.cuMemcpyHtoDAsync = reinterpret_cast<decltype(d.cuMemcpyHtoDAsync)>(
        dlsym(lib, "cuMemcpyHtoDAsync_v2"));
    d.cuMemcpyDtoHAsync = reinterpret_cast<decltype(d.cuMemcpyDtoHAsync)>(
        dlsym(lib, "cuMemcpyDtoHAsync_v2"));
    d.cuEventQuery =
        reinterpret_cast<decltype(d.cuEventQuery)>(dlsym(lib, "cuEventQuery"));
    d.cuEventSynchronize = reinterpret_cast<decltype(d.cuEventSynchronize)>(
        dlsym(lib, "cuEventSynchronize"));
    d.cuStreamWaitEvent = reinterpret_cast<decltype(d.cuStreamWaitEvent)>(
        dlsym(lib, "cuStreamWaitEvent"));
    d.cuEventCreate = reinterpret_cast<decltype(d.cuEventCreate)>(
        dlsym(lib, "cuEventCreate"));
    d.cuEventRecord = reinterpret_cast<decltype(d.cuEventRecord)>(
        dlsym(lib, "cuEventRecord"));
    // cuda.h 12.8 and newer name cuEventElapsedTime_v2 (same arguments).
    void *elapsed = dlsym(lib, "cuEventElapsedTime_v2");
    if (!elapsed)
      elapsed = dlsym(lib, "cuEventElapsedTime");
    d.cuEventElapsedTime =
        reinterpret_cast<decltype(d.cuEventElapsedTime)>(elapsed);
    if (!d.cuEventRecord || !d.cuEventElapsedTime)
      d.cuEventCreate = nullptr;
    api = d;
    int count = 0;
    CUdevice dev = 0;
    CUresult result = api.cuInit(0);
    if (result == 0)
      result = api.cuDeviceGetCount(&count);
    if (result != 0) {
      unusable = describe("cuInit", result);
      return false;
    }
    // The ranks of a data-parallel run on one machine take its devices in
    // turn, unless told which.
    if (const char *device = std::getenv("MP_CUDA_DEVICE"))
      ordinal = std::atoi(device);
    else if (int32_t local = world::launcherLocalRank(); local >= 0 && count)
      ordinal = local % count;
    if (ordinal < 0 || ordinal >= count) {
      unusable = count ? "no CUDA device " + std::to_string(ordinal) + " (" +
                             std::to_string(count) + " present)"
                       : "no CUDA device";
      return false;
    }
    char name[256] = {0};
    if ((result = api.cuDeviceGet(&dev, ordinal)) != 0 ||
        (result = api.cuDeviceGetName(name, sizeof(name) - 1, dev)) != 0 ||
        (result = api.cuDeviceGetAttribute(&major, kComputeCapabilityMajor,
                                           dev)) != 0 ||
        (result = api.cuDeviceGetAttribute(&minor, kComputeCapabilityMinor,
                                           dev)) != 0 ||
        (result = api.cuDevicePrimaryCtxRetain(&context, dev)) != 0) {
      unusable =
          describe("opening CUDA device " + std::to_string(ordinal), result);
      return false;
    }
    deviceName = name;
    if (api.cuDeviceGetAttribute(&maxSharedMemoryPerBlock,
                                 kMaxSharedMemoryPerBlockOptin, dev) != 0)
      maxSharedMemoryPerBlock = 0;
    auto isSet = [](const char *var) {
      const char *value = std::getenv(var);
      return value && *value && std::strcmp(value, "0") != 0;
    };
    profile = isSet("MP_CUDA_PROFILE");
    blocking = profile || isSet("MP_CUDA_SYNC");
  }
  if (!unusable.empty())
    return false;
  if (!check(api.cuCtxSetCurrent(context), "cuCtxSetCurrent"))
    return false;
  current = true;
  return true;
}

void Cuda::printProfile() {
  if (kernelTimes.empty())
    return;
  std::vector<std::pair<double, std::string>> rows;
  double total = 0;
  for (auto &[name, time] : kernelTimes) {
    rows.emplace_back(time.total, name);
    total += time.total;
  }
  std::sort(rows.rbegin(), rows.rend());
  std::fprintf(stderr,
               "mp CUDA profile (%s): %.3f s in %zu kernels (host time from "
               "each launch to the end of its work; a kernel's first launch "
               "also loads it)\n",
               deviceName.c_str(), total, rows.size());
  for (size_t i = 0; i < rows.size() && i < 15; ++i) {
    const KernelTime &time = kernelTimes[rows[i].second];
    std::fprintf(stderr, "  %8.3f ms %5.1f%% %8lld launches  first %.3f ms",
                 time.total * 1e3, 100 * time.total / total,
                 static_cast<long long>(time.launches), time.first * 1e3);
    if (time.launches > 1)
      std::fprintf(stderr, ", then %.3f ms each",
                   (time.total - time.first) * 1e3 / (time.launches - 1));
    std::fprintf(stderr, "  %s\n", rows[i].second.c_str());
  }
}

//===----------------------------------------------------------------------===//
// What the compiled host code calls.
//===----------------------------------------------------------------------===//

extern "C" {
void *mgpuModuleLoad(void *data, size_t /*size*/) {
  Cuda &cuda = Cuda::get();
  if (!cuda.ensure())
    return nullptr;
  CUmodule module = nullptr;
  if (cuda.check(cuda.api.cuModuleLoadData(&module, data), "cuModuleLoadData"))
    cuda.moduleNumbers.emplace(module, cuda.moduleNumbers.size());
  return module;
}

void *mgpuModuleLoadJIT(void *data, int /*optLevel*/) {
  return mgpuModuleLoad(data, 0);
}

void mgpuModuleUnload(void *module) {
  Cuda &cuda = Cuda::get();
  if (module && cuda.ensure())
    cuda.api.cuModuleUnload(module);
}

void *mgpuModuleGetFunction(void *module, const char *name) {
  Cuda &cuda = Cuda::get();
  if (!module || !cuda.ensure())
    return nullptr;
  CUfunction function = nullptr;
  if (cuda.check(cuda.api.cuModuleGetFunction(&function, module, name),
                 std::string("cuModuleGetFunction(") + name + ")")) {
    // A handle of an unloaded module's kernel may come back for another.
    cuda.kernels.insert_or_assign(
        function, std::string(name) + " in module #" +
                      std::to_string(cuda.moduleNumbers[module]));
    cuda.sharedMemoryAllowed.erase(function);
  }
  return function;
}

void *mgpuStreamCreate() {
  Cuda &cuda = Cuda::get();
  if (!cuda.stream && cuda.ensure())
    cuda.check(cuda.api.cuStreamCreate(&cuda.stream, 0), "cuStreamCreate");
  return cuda.stream;
}

void mgpuStreamDestroy(void *) {} // the backend's stream lives on

void mgpuStreamSynchronize(void *stream) {
  Cuda &cuda = Cuda::get();
  if (!stream || !cuda.ensure())
    return;
  cuda.waitForStream();
}

void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY,
                      intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                      intptr_t blockZ, int32_t sharedMemory, void *stream,
                      void **params, void **extra, size_t /*paramsCount*/) {
  Cuda &cuda = Cuda::get();
  // After a failure nothing more runs: the call reports the first error.
  if (!function || !cuda.pending.empty() || !cuda.ensure())
    return;
  if (gridX == 0 || gridY == 0 || gridZ == 0)
    return; // an empty grid: nothing to do (the driver rejects it)
  if (sharedMemory > kDefaultSharedMemoryLimit &&
      !cuda.allowSharedMemory(function, sharedMemory))
    return;
  mp_runtime::cuda::startLaunch(cuda.kernels[function]);
  CUresult result =
      cuda.api.cuLaunchKernel(function, gridX, gridY, gridZ, blockX, blockY,
                              blockZ, sharedMemory, stream, params, extra);
  if (cuda.check(result, "cuLaunchKernel(" + cuda.kernels[function] + ")"))
    mp_runtime::cuda::finishLaunch();
}

void *_mlir_memref_to_llvm_aligned_alloc(size_t alignment, size_t size);

void *_mlir_memref_to_llvm_alloc(size_t size) {
  return _mlir_memref_to_llvm_aligned_alloc(0, size);
}

/// The pool's size class of a request: a power of two up to 1 MiB, then
/// whole MiB (at most 1/2 of a small block and 1 MiB of a large one unused).
static size_t sizeClass(size_t size) {
  constexpr size_t kMiB = size_t(1) << 20;
  if (size > kMiB)
    return (size + kMiB - 1) / kMiB * kMiB;
  size_t c = 256;
  while (c < size)
    c <<= 1;
  return c;
}

void *Cuda::allocate(size_t size, bool idleOnly) {
  size_t bytes = sizeClass(size);
  auto [first, last] = freeBlocks.equal_range(bytes);
  if (idleOnly && first != last)
    updateCallsDone();
  for (auto cached = first; cached != last; ++cached) {
    if (idleOnly && cached->second.freedIn > callsDone)
      continue;
    void *block = cached->second.address;
    freeBlocks.erase(cached);
    take(bytes);
    return block;
  }
  CUdeviceptr pointer = 0;
  CUresult result = api.cuMemAllocManaged(&pointer, bytes, kMemAttachGlobal);
  if (result != 0 && !freeBlocks.empty()) {
    // Out of memory, perhaps: give the cached blocks back (cuMemFree waits
    // for the kernels that may use them) and try again.
    for (auto &[blockBytes, block] : freeBlocks) {
      api.cuMemFree(reinterpret_cast<CUdeviceptr>(block.address));
      blockSizes.erase(block.address);
      reserved -= blockBytes;
    }
    freeBlocks.clear();
    result = api.cuMemAllocManaged(&pointer, bytes, kMemAttachGlobal);
  }
  if (!check(result, "cuMemAllocManaged(" + std::to_string(bytes) + " bytes)"))
    return std::calloc(1, size ? size : 1);
  blockSizes[reinterpret_cast<void *>(pointer)] = bytes;
  reserved += bytes;
  take(bytes);
  return reinterpret_cast<void *>(pointer);
}

/// Managed memory is aligned to at least 256 bytes, more than any memref
/// asks for. Without a usable driver (the call fails anyway) the host code
/// gets host memory so that it does not crash before the error is seen.
void *_mlir_memref_to_llvm_aligned_alloc(size_t /*alignment*/, size_t size) {
  Cuda &cuda = Cuda::get();
  if (!cuda.ensure())
    return std::calloc(1, size ? size : 1);
  return cuda.allocate(size, /*idleOnly=*/false);
}

void _mlir_memref_to_llvm_free(void *pointer) {
  Cuda &cuda = Cuda::get();
  if (!pointer)
    return;
  auto block = cuda.blockSizes.find(pointer);
  if (block == cuda.blockSizes.end()) {
    // Host memory: a tensor's, or given when the driver failed.
    std::free(pointer);
    return;
  }
  cuda.freeBlocks.insert({block->second, {pointer, cuda.calls}});
  cuda.inUse -= block->second;
}

void mp_cuda_memory(size_t *peak, size_t *reserved) {
  Cuda &cuda = Cuda::get();
  *peak = cuda.peakInUse;
  *reserved = cuda.reserved;
}

double mp_cuda_last_call_ms(void) { return Cuda::get().lastCallMs; }

void mp_cuda_queued_time(double *ms, int64_t *calls) {
  Cuda &cuda = Cuda::get();
  *ms = cuda.queuedMs;
  *calls = cuda.queuedTimed;
}
} // extern "C"

//===----------------------------------------------------------------------===//
// The backend.
//===----------------------------------------------------------------------===//

namespace {
class CudaBackend : public Backend {
public:
  ~CudaBackend() override {
    // Unloading runs the module's destructors, which unload its kernels.
    if (handle)
      dlclose(handle);
  }

  mp_status load(const std::string &path) override {
    Cuda &cuda = Cuda::get();
    if (!cuda.ensure())
      return fail(MP_ERROR_NOT_FOUND, "CUDA backend: " + cuda.unusable);
    // The module's constructors load its GPU binaries.
    cuda.pending.clear();
    handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle)
      return fail(MP_ERROR_NOT_FOUND,
                  "cannot load module '" + path + "': " + dlerror());
    if (!cuda.pending.empty()) {
      cuda.pending +=
          " loading the GPU code of '" + path + "'" + explainLoadFailure(cuda);
      return cuda.takeError();
    }
    return MP_OK;
  }

  void *lookup(const std::string &symbol) override {
    return dlsym(handle, symbol.c_str());
  }

  mp_status invoke(void *fn, void **args, bool wait) override {
    Cuda &cuda = Cuda::get();
    mgpuStreamCreate();
    ++cuda.calls;
    cuda.waitForStaging();
    cuda.startCall();
    bool queue = !wait && cuda.canQueue();
    if (queue)
      cuda.startQueuedCall();
    reinterpret_cast<void (*)(void **)>(fn)(args);
    // A failed call's work is waited for: it may still read its pinned
    // blocks.
    if (!queue || !cuda.pending.empty()) {
      cuda.waitForStream();
      cuda.finishCall();
    } else {
      cuda.queueCall();
    }
    return cuda.takeError();
  }

  mp_status wait() override {
    Cuda &cuda = Cuda::get();
    if (!cuda.queuedCalls.empty())
      cuda.waitForStream();
    return cuda.takeError();
  }

  mp_status readBack(const std::vector<Piece> &pieces,
                     uint64_t &ticket) override {
    Cuda &cuda = Cuda::get();
    size_t total = 0;
    for (const Piece &piece : pieces)
      total += piece.bytes;
    if (cuda.queuedCalls.empty() || total > kMaxReadBackBytes)
      return Backend::readBack(pieces, ticket);
    Cuda::ReadBackSlot *slot = cuda.freeReadBackSlot();
    if (!slot)
      return cuda.takeError();
    size_t offset = 0;
    for (const Piece &piece : pieces) {
      // Host memory (a result the host copied) is final already.
      if (cuda.isPoolMemory(piece.data))
        cuda.check(cuda.api.cuMemcpyDtoHAsync(
                       slot->host + offset,
                       reinterpret_cast<CUdeviceptr>(piece.data), piece.bytes,
                       cuda.stream),
                   "cuMemcpyDtoHAsync (reading back " +
                       std::to_string(piece.bytes) + " bytes)");
      else
        std::memcpy(slot->host + offset, piece.data, piece.bytes);
      offset += piece.bytes;
    }
    if (cuda.check(cuda.api.cuEventRecord(slot->copied, cuda.stream),
                   "cuEventRecord"))
      slot->ticket = ticket = ++cuda.lastTicket;
    slot->bytes = offset;
    return cuda.takeError();
  }

  mp_status collect(uint64_t ticket, void *out) override {
    Cuda &cuda = Cuda::get();
    for (Cuda::ReadBackSlot &slot : cuda.readBackSlots) {
      if (slot.ticket != ticket || !ticket)
        continue;
      slot.ticket = 0;
      if (!cuda.check(cuda.api.cuEventSynchronize(slot.copied),
                      "cuEventSynchronize (waiting for the kernels of a "
                      "queued call; MP_CUDA_SYNC=1 names the one that "
                      "failed)"))
        return cuda.takeError();
      std::memcpy(out, slot.host, slot.bytes);
      return MP_OK;
    }
    return Backend::collect(ticket, out);
  }

  mp_status stage(const mp_tensor &tensor, size_t bytes, void **data) override {
    // A result of an earlier call (training state) is already where the
    // kernels read it.
    if (Cuda::get().blockSizes.count(tensor.data)) {
      *data = tensor.data;
      return MP_OK;
    }
    Cuda &cuda = Cuda::get();
    // Through pinned memory, the copy engine writes the device buffer, on
    // the copy stream beside the kernels of queued calls (into a block none
    // of them uses; the call's kernels wait for the copy) or ahead of the
    // kernels on theirs: no page of it moves to the host (a block from the
    // pool was last written on the device).
    if (void *pinned = bytes ? cuda.takePinned(bytes) : nullptr) {
      CUstream on = cuda.stagingStream();
      bool beside = on == cuda.copyStream;
      *data = cuda.allocate(bytes, /*idleOnly=*/beside);
      if (mp_status status = cuda.takeError())
        return status;
      std::memcpy(pinned, tensor.data, bytes);
      if (cuda.check(
              cuda.api.cuMemcpyHtoDAsync(reinterpret_cast<CUdeviceptr>(*data),
                                         pinned, bytes, on),
              "cuMemcpyHtoDAsync (staging an argument of " +
                  std::to_string(bytes) + " bytes)"))
        cuda.copiesToWaitFor |= beside;
      mp_status status = cuda.takeError();
      if (status != MP_OK)
        release(*data);
      return status;
    }
    *data = _mlir_memref_to_llvm_alloc(bytes);
    if (mp_status status = cuda.takeError())
      return status;
    if (!bytes)
      return MP_OK;
    // The host writes the block: a queued call may still use it.
    if (!cuda.queuedCalls.empty()) {
      cuda.waitForStream();
      if (mp_status status = cuda.takeError()) {
        release(*data);
        return status;
      }
    }
    std::memcpy(*data, tensor.data, bytes);
    // The pages the host just wrote go to the device in one transfer ahead
    // of the kernels, not page by page as they fault. Only a hint: where
    // the device refuses it (no concurrent managed access), the pages fault
    // over as before and later calls do not ask again.
    if (cuda.api.cuMemPrefetchAsync &&
        cuda.api.cuMemPrefetchAsync(reinterpret_cast<CUdeviceptr>(*data), bytes,
                                    {kMemLocationTypeDevice, cuda.ordinal}, 0,
                                    mgpuStreamCreate()) != 0)
      cuda.api.cuMemPrefetchAsync = nullptr;
    return MP_OK;
  }

  void release(void *allocated) override {
    _mlir_memref_to_llvm_free(allocated);
  }

private:
  /// " on DEVICE (sm_NN), which ...": the device, what the module carries
  /// (its `_mp_gpu_targets`) and what to do about the pending failure.
  std::string explainLoadFailure(const Cuda &cuda) {
    std::string sm = std::to_string(cuda.major * 10 + cuda.minor);
    std::string text = " on " + cuda.deviceName + " (sm_" + sm + ")";
    auto *targets = static_cast<const char *>(dlsym(handle, "_mp_gpu_targets"));
    if (targets)
      text += std::string("; the module has ") + targets;
    if (cuda.pendingResult == kNoBinaryForGpu)
      text += ": compile it for this GPU (mp-run --gpu-chips sm_" + sm +
              ", mp-lower-to-gpu chips=sm_" + sm +
              "; mma.sync needs sm_80 or newer, wgmma sm_90a)";
    else if (cuda.pendingResult == kUnsupportedPtxVersion)
      text += ": the driver is older than the PTX (mp-lower-to-gpu "
              "ptx-features); update the driver";
    return text;
  }

  void *handle = nullptr;
};
} // namespace

void *mp_runtime::cuda::activeStream() {
  Cuda &cuda = Cuda::get();
  if (!cuda.pending.empty() || !cuda.ensure())
    return nullptr;
  return mgpuStreamCreate();
}

int mp_runtime::cuda::queryStream() {
  Cuda &cuda = Cuda::get();
  if (!cuda.stream || !cuda.pending.empty() || !cuda.ensure())
    return -1;
  CUresult result = cuda.api.cuStreamQuery(cuda.stream);
  if (result == kNotReady)
    return 0;
  return cuda.check(result, "cuStreamQuery") ? 1 : -1;
}

void mp_runtime::cuda::forgetCallTime() { Cuda::get().lastCallMs = -1; }

void mp_runtime::cuda::recordFailure(const std::string &message) {
  Cuda &cuda = Cuda::get();
  if (cuda.pending.empty())
    cuda.pending = message;
}

void mp_runtime::cuda::startLaunch(const std::string &what) {
  Cuda &cuda = Cuda::get();
  if (!cuda.blocking)
    return;
  cuda.lastLaunch = what;
  // The profile times this launch alone: what the stream holds before it
  // (prefetches of staged inputs) is waited for first.
  if (cuda.profile && cuda.stream)
    cuda.check(cuda.api.cuStreamSynchronize(cuda.stream),
               "cuStreamSynchronize (before " + what + ")");
  cuda.launchedAt = std::chrono::steady_clock::now();
}

void mp_runtime::cuda::finishLaunch() {
  Cuda &cuda = Cuda::get();
  if (!cuda.blocking || !cuda.stream)
    return;
  if (!cuda.check(cuda.api.cuStreamSynchronize(cuda.stream),
                  cuda.lastLaunch + " (cuStreamSynchronize)") ||
      !cuda.profile)
    return;
  Cuda::KernelTime &entry = cuda.kernelTimes[cuda.lastLaunch];
  double seconds = std::chrono::duration<double>(
                       std::chrono::steady_clock::now() - cuda.launchedAt)
                       .count();
  if (entry.launches++ == 0)
    entry.first = seconds;
  entry.total += seconds;
}

mp_status mp_runtime::probeCuda(std::string &device) {
  Cuda &cuda = Cuda::get();
  if (!cuda.ensure())
    return fail(MP_ERROR_NOT_FOUND,
                "CUDA backend: " +
                    (cuda.unusable.empty() ? cuda.pending : cuda.unusable));
  device = cuda.deviceName + " (sm_" +
           std::to_string(cuda.major * 10 + cuda.minor) + ")";
  return MP_OK;
}

void mp_runtime::freeTensorData(void *data) { _mlir_memref_to_llvm_free(data); }

std::unique_ptr<Backend> mp_runtime::createCudaBackend() {
  return std::make_unique<CudaBackend>();
}
