//===- CudaCollectives.cpp - NCCL collectives of the CUDA backend ---------===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// What the host code of mp-lower-to-gpu calls for `mp.all_reduce`:
// `mp_cuda_all_reduce` reduces a buffer of the CUDA backend in place across
// the ranks with NCCL, on the backend's stream after the kernels before it.
//
// NCCL is loaded with dlopen on the first collective of a run of several
// ranks (a world of one never loads it; binaries start without it) and
// bootstrapped over the MPI world: rank 0 makes the communicator's unique id
// and the MPI plugin broadcasts it; the ranks meet over MPI before making
// the communicator (NCCL's init has no timeout). The communicator lives as
// long as the process, like the backend's stream.
//
// As for the host collectives, a failure ends every rank (mp_world_abort),
// and a rank that stops answering is given up on after
// $MP_COLLECTIVE_TIMEOUT seconds: the call waits for its reduction, polling
// the stream and the communicator's asynchronous error, and aborts the
// communicator at the deadline. (A wait in the driver would never return.)
//
//===----------------------------------------------------------------------===//

#include "CollectiveWait.h"
#include "Internal.h"

/// NCCL's communicator id, as nccl.h declares it; passed by value.
struct ncclUniqueId {
  char internal[128];
};

using namespace mp_runtime;

namespace {
// NCCL's types and constants, as nccl.h declares them (stable in NCCL 2).
using Result = int;
using Comm = void *;
constexpr Result kSuccess = 0, kInProgress = 7;
constexpr int kUint8 = 1, kFloat16 = 6, kFloat32 = 7, kBfloat16 = 9;
constexpr int kSum = 0, kMax = 2;

/// The NCCL entry points used and the run's communicator, made on first use.
struct Nccl {
  Result (*getUniqueId)(ncclUniqueId *);
  Result (*commInitRank)(Comm *, int, ncclUniqueId, int);
  Result (*allReduce)(const void *, void *, size_t, int, int, Comm, void *);
  Result (*commGetAsyncError)(Comm, Result *);
  Result (*commAbort)(Comm);
  const char *(*getErrorString)(Result);
  const char *(*getLastError)(Comm); // optional (NCCL 2.13 and newer)
  Comm comm = nullptr;

  static Nccl &get() {
    static Nccl nccl = connect();
    return nccl;
  }

  /// "CALL: ERROR (DETAIL)", ending every rank if `result` is a failure.
  void check(Result result, const char *call) const {
    if (result == kSuccess)
      return;
    std::string message =
        std::string("NCCL: ") + call + ": " + getErrorString(result);
    if (const char *detail = getLastError ? getLastError(comm) : nullptr;
        detail && *detail)
      message += std::string(" (") + detail + ")";
    world::abort(message);
  }

private:
  static Nccl connect();
};

Nccl Nccl::connect() {
  std::string error;
  void *lib =
      openCudaLibrary("NCCL", "MP_NCCL_LIBRARY", {"libnccl.so.2", "libnccl.so"},
                      {"nccl/lib"}, error);
  if (!lib)
    world::abort(error + " (the GPU collectives of data-parallel runs need "
                         "it; --backend cpu runs them over MPI)");
  Nccl nccl;
  SymbolResolver resolve(lib);
  resolve("ncclGetUniqueId", nccl.getUniqueId);
  resolve("ncclCommInitRank", nccl.commInitRank);
  resolve("ncclAllReduce", nccl.allReduce);
  resolve("ncclCommGetAsyncError", nccl.commGetAsyncError);
  resolve("ncclCommAbort", nccl.commAbort);
  resolve("ncclGetErrorString", nccl.getErrorString);
  if (resolve.missing)
    world::abort(std::string("NCCL: the library lacks ") + resolve.missing +
                 " (NCCL 2.4 or newer is needed)");
  nccl.getLastError =
      reinterpret_cast<const char *(*)(Comm)>(dlsym(lib, "ncclGetLastError"));
  ncclUniqueId id{};
  if (world::rank() == 0)
    nccl.check(nccl.getUniqueId(&id), "ncclGetUniqueId");
  world::broadcast(&id, sizeof(id));
  // Every rank gets here (over MPI, within the timeout) before any makes
  // the communicator, which waits for all of them without one.
  uint8_t here = 1;
  mp_all_reduce(reinterpret_cast<intptr_t>(&here), 1, MP_I1, /*max=*/1);
  nccl.check(nccl.commInitRank(&nccl.comm, world::size(), id, world::rank()),
             "ncclCommInitRank");
  return nccl;
}

/// NCCL's data type of the runtime's `mp_dtype` number; i1 flags are bytes.
int getNcclType(int32_t dtype) {
  switch (dtype) {
  case MP_F32:
    return kFloat32;
  case MP_F16:
    return kFloat16;
  case MP_BF16:
    return kBfloat16;
  case MP_I1:
    return kUint8;
  default:
    world::abort("all-reduce of unsupported dtype " + std::to_string(dtype));
  }
}
} // namespace

extern "C" void mp_cuda_all_reduce(int64_t address, int64_t count,
                                   int32_t dtype, int32_t kind) {
  if (world::size() == 1)
    return;
  // After a failure nothing more runs: the entry call reports it, and the
  // rank's error ends every rank.
  void *stream = cuda::activeStream();
  if (!stream)
    return;
  int type = getNcclType(dtype);
  Nccl &nccl = Nccl::get();
  auto *data = reinterpret_cast<void *>(static_cast<intptr_t>(address));
  cuda::startLaunch("ncclAllReduce");
  nccl.check(nccl.allReduce(data, data, static_cast<size_t>(count), type,
                            kind == 1 ? kMax : kSum, nccl.comm, stream),
             "ncclAllReduce");
  double timeout = world::timeout();
  CollectiveWait wait(timeout);
  for (;;) {
    Result state = kSuccess;
    nccl.check(nccl.commGetAsyncError(nccl.comm, &state),
               "ncclCommGetAsyncError");
    if (state != kInProgress)
      nccl.check(state, "ncclAllReduce");
    int done = cuda::queryStream();
    if (done < 0)
      return; // a kernel failed: recorded for the entry call
    if (done && state == kSuccess)
      break;
    if (!wait.pause()) {
      nccl.commAbort(nccl.comm);
      world::abort(world::describeAllReduce(count, dtype) + ": " +
                   CollectiveWait::timedOut(timeout));
    }
  }
  cuda::finishLaunch();
}
