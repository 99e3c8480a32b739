//===- fake_nccl.cpp - A fake NCCL for the GPU collectives' tests ---------===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// The NCCL entry points the CUDA backend resolves, for tests on machines
// without a GPU (with the fake driver, whose device memory is host memory).
// It reduces for real, over MPI: ncclAllReduce starts a non-blocking
// MPI all-reduce and reports ncclInProgress from ncclCommGetAsyncError
// until it has completed, as a collective still running on the GPU would.
// f16 and bf16 are summed in f32 and rounded once. ncclCommInitRank checks
// that every rank got rank 0's unique id and its own rank. Set by the
// environment:
//   MP_FAKE_NCCL_FAIL=CALL:CODE   CALL returns CODE (an ncclResult_t);
//   MP_FAKE_NCCL_TRACE=1          each call printed to stderr as
//                                 "fake-nccl: rank R: CALL ARGS".
//
//===----------------------------------------------------------------------===//

#include "../lib/Internal.h"

#include <mpi.h>

#include <cstdlib>
#include <unistd.h>
#include <vector>

/// As the runtime declares it (the types of its calls must match).
struct ncclUniqueId {
  char internal[128];
};

namespace {
constexpr int kSuccess = 0, kInvalidArgument = 4, kInvalidUsage = 5,
              kInProgress = 7;

struct Comm {
  int rank = 0, size = 1;
  MPI_Request request = MPI_REQUEST_NULL;
  /// An f16/bf16 reduction in flight: its buffer, type and f32 copy.
  uint16_t *half = nullptr;
  int halfType = 0;
  std::vector<float> wide;
};

int rankOf(Comm *comm) {
  if (comm)
    return comm->rank;
  int rank = 0, initialized = 0;
  MPI_Initialized(&initialized);
  if (initialized)
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

/// Traces `call`; returns the failure configured for it, or kSuccess.
int enter(const char *call, Comm *comm, const std::string &args = "") {
  if (const char *trace = std::getenv("MP_FAKE_NCCL_TRACE");
      trace && *trace == '1')
    std::fprintf(stderr, "fake-nccl: rank %d: %s%s%s\n", rankOf(comm), call,
                 args.empty() ? "" : " ", args.c_str());
  const char *fail = std::getenv("MP_FAKE_NCCL_FAIL");
  size_t length = std::strlen(call);
  if (!fail || std::strncmp(fail, call, length) != 0 || fail[length] != ':')
    return kSuccess;
  return std::atoi(fail + length + 1);
}

float load(uint16_t bits, bool bf16) {
  return bf16 ? mp_runtime::fromBF16(bits) : mp_runtime::fromF16(bits);
}

uint16_t store(float value, bool bf16) {
  return bf16 ? mp_runtime::toBF16(value) : mp_runtime::toF16(value);
}

const char *typeName(int type) {
  switch (type) {
  case 1:
    return "u8";
  case 6:
    return "f16";
  case 7:
    return "f32";
  case 9:
    return "bf16";
  default:
    return "?";
  }
}
} // namespace

extern "C" {
int ncclGetUniqueId(ncclUniqueId *id) {
  std::memset(id, 0, sizeof(*id));
  std::snprintf(id->internal, sizeof(id->internal), "fake-nccl %d",
                static_cast<int>(getpid()));
  return enter("ncclGetUniqueId", nullptr);
}

int ncclCommInitRank(void **out, int size, ncclUniqueId id, int rank) {
  if (int result = enter("ncclCommInitRank", nullptr,
                         std::to_string(size) + " ranks, id '" +
                             std::string(id.internal) + "'"))
    return result;
  int initialized = 0, worldRank = 0, worldSize = 0;
  MPI_Initialized(&initialized);
  if (!initialized)
    return kInvalidUsage;
  MPI_Comm_rank(MPI_COMM_WORLD, &worldRank);
  MPI_Comm_size(MPI_COMM_WORLD, &worldSize);
  ncclUniqueId root = id;
  MPI_Bcast(root.internal, sizeof(root.internal), MPI_BYTE, 0, MPI_COMM_WORLD);
  int bad = std::memcmp(&root, &id, sizeof(id)) != 0 || rank != worldRank ||
            size != worldSize || id.internal[0] == 0;
  MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (bad)
    return kInvalidArgument;
  auto *comm = new Comm;
  comm->rank = rank;
  comm->size = size;
  *out = comm;
  return kSuccess;
}

int ncclAllReduce(const void *send, void *recv, size_t count, int type, int op,
                  void *c, void *stream) {
  (void)stream;
  auto *comm = static_cast<Comm *>(c);
  if (int result = enter("ncclAllReduce", comm,
                         std::to_string(count) + " " + typeName(type) +
                             (op == 2   ? " max"
                              : op == 0 ? " sum"
                                        : " ?")))
    return result;
  if (!comm || send != recv || comm->request != MPI_REQUEST_NULL ||
      (op != 0 && op != 2) || count > INT32_MAX)
    return kInvalidArgument;
  MPI_Op mpiOp = op == 2 ? MPI_MAX : MPI_SUM;
  int n = static_cast<int>(count);
  switch (type) {
  case 1:
    return MPI_Iallreduce(MPI_IN_PLACE, recv, n, MPI_UNSIGNED_CHAR, mpiOp,
                          MPI_COMM_WORLD, &comm->request)
               ? kInvalidUsage
               : kSuccess;
  case 7:
    return MPI_Iallreduce(MPI_IN_PLACE, recv, n, MPI_FLOAT, mpiOp,
                          MPI_COMM_WORLD, &comm->request)
               ? kInvalidUsage
               : kSuccess;
  case 6:
  case 9:
    comm->half = static_cast<uint16_t *>(recv);
    comm->halfType = type;
    comm->wide.resize(count);
    for (size_t i = 0; i < count; ++i)
      comm->wide[i] = load(comm->half[i], type == 9);
    return MPI_Iallreduce(MPI_IN_PLACE, comm->wide.data(), n, MPI_FLOAT, mpiOp,
                          MPI_COMM_WORLD, &comm->request)
               ? kInvalidUsage
               : kSuccess;
  default:
    return kInvalidArgument;
  }
}

int ncclCommGetAsyncError(void *c, int *state) {
  auto *comm = static_cast<Comm *>(c);
  *state = kSuccess;
  if (comm->request == MPI_REQUEST_NULL)
    return kSuccess;
  int done = 0;
  if (MPI_Test(&comm->request, &done, MPI_STATUS_IGNORE))
    return kInvalidUsage;
  if (!done) {
    *state = kInProgress;
    return kSuccess;
  }
  if (comm->half) {
    for (size_t i = 0; i < comm->wide.size(); ++i)
      comm->half[i] = store(comm->wide[i], comm->halfType == 9);
    comm->half = nullptr;
  }
  return kSuccess;
}

int ncclCommAbort(void *c) {
  enter("ncclCommAbort", static_cast<Comm *>(c));
  return kSuccess;
}

const char *ncclGetErrorString(int result) {
  switch (result) {
  case kSuccess:
    return "no error";
  case kInvalidArgument:
    return "invalid argument (run with NCCL_DEBUG=WARN for details)";
  case kInvalidUsage:
    return "invalid usage (run with NCCL_DEBUG=WARN for details)";
  default:
    return "unknown result code";
  }
}

const char *ncclGetLastError(void *) { return "the fake NCCL says so"; }
} // extern "C"
