//===- MpiPlugin.cpp - The runtime's MPI communicator -----------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// libMPRuntimeMPI.so: the only part of mp that links MPI. The runtime
// (Communicator.cpp) loads it with dlopen when a process is launched as one
// rank of several, so that mp-run and mp-exec start without MPI installed
// and a single process never loads it. Its C entry points return 0 on
// success, or non-zero with a one-line message in `error`.
//
// f16 and bf16 sums use MPI operations of our own on 16-bit words: each
// partial sum is computed in f32 and rounded to the element type, as
// NCCL and PyTorch's compressed all-reduce do.
//
//===----------------------------------------------------------------------===//

#include "../lib/CollectiveWait.h"
#include "../lib/Internal.h"

#include <mpi.h>

namespace {

struct F16 {
  static float load(uint16_t bits) { return mp_runtime::fromF16(bits); }
  static uint16_t store(float value) { return mp_runtime::toF16(value); }
};

struct BF16 {
  static float load(uint16_t bits) { return mp_runtime::fromBF16(bits); }
  static uint16_t store(float value) { return mp_runtime::toBF16(value); }
};

template <typename Format, bool isMax>
void combine(void *in, void *inout, int *len, MPI_Datatype *) {
  auto *x = static_cast<const uint16_t *>(in);
  auto *y = static_cast<uint16_t *>(inout);
  for (int i = 0; i < *len; ++i) {
    float a = Format::load(x[i]), b = Format::load(y[i]);
    y[i] = Format::store(isMax ? (a > b || a != a ? a : b) : a + b);
  }
}

// Per 16-bit format (f16, bf16) and kind (sum, max).
MPI_Op halfOps[2][2];

void setError(char *error, size_t size, const char *call, int code) {
  char text[MPI_MAX_ERROR_STRING] = "";
  int length = 0;
  MPI_Error_string(code, text, &length);
  std::snprintf(error, size, "%s: %s", call, text);
}

/// Waits for `request` (MPI progresses only inside its calls); false with
/// `error` set if it fails or `wait` reaches its deadline.
bool complete(MPI_Request &request, mp_runtime::CollectiveWait &wait,
              double timeout, char *error, size_t errorSize) {
  for (;;) {
    int done = 0;
    if (int code = MPI_Test(&request, &done, MPI_STATUS_IGNORE)) {
      setError(error, errorSize, "MPI_Test", code);
      return false;
    }
    if (done)
      return true;
    if (!wait.pause()) {
      std::snprintf(error, errorSize, "%s",
                    mp_runtime::CollectiveWait::timedOut(timeout).c_str());
      return false;
    }
  }
}

} // namespace

extern "C" int mp_mpi_init(int32_t *rank, int32_t *size, char *error,
                           size_t errorSize) {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) {
    int provided = 0;
    if (int code = MPI_Init_thread(nullptr, nullptr, MPI_THREAD_SERIALIZED,
                                   &provided)) {
      setError(error, errorSize, "MPI_Init_thread", code);
      return 1;
    }
  }
  // Errors come back as codes, so that a rank reports what failed.
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int r = 0, n = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  *rank = r;
  *size = n;
  MPI_Op_create(combine<F16, false>, 1, &halfOps[0][0]);
  MPI_Op_create(combine<F16, true>, 1, &halfOps[0][1]);
  MPI_Op_create(combine<BF16, false>, 1, &halfOps[1][0]);
  MPI_Op_create(combine<BF16, true>, 1, &halfOps[1][1]);
  return 0;
}

/// Reduces `count` elements at `data` in place across all ranks; gives up
/// after `timeout` seconds (a rank that stopped answering).
extern "C" int mp_mpi_all_reduce(void *data, int64_t count, int32_t dtype,
                                 int32_t kind, double timeout, char *error,
                                 size_t errorSize) {
  MPI_Datatype type;
  MPI_Op op;
  bool isMax = kind == 1;
  switch (dtype) {
  case MP_F32:
    type = MPI_FLOAT;
    op = isMax ? MPI_MAX : MPI_SUM;
    break;
  case MP_F16:
  case MP_BF16:
    type = MPI_UINT16_T;
    op = halfOps[dtype == MP_BF16][isMax];
    break;
  case MP_I1:
    type = MPI_UNSIGNED_CHAR;
    op = MPI_MAX;
    break;
  default:
    std::snprintf(error, errorSize, "all-reduce of unsupported dtype %d",
                  dtype);
    return 1;
  }
  // MPI counts are int: large buffers go in pieces.
  auto *bytes = static_cast<char *>(data);
  int elementSize = 0;
  MPI_Type_size(type, &elementSize);
  constexpr int64_t kPiece = int64_t(1) << 30;
  mp_runtime::CollectiveWait wait(timeout);
  for (int64_t first = 0; first < count; first += kPiece) {
    int n = static_cast<int>(std::min(kPiece, count - first));
    MPI_Request request;
    if (int code = MPI_Iallreduce(MPI_IN_PLACE, bytes + first * elementSize, n,
                                  type, op, MPI_COMM_WORLD, &request)) {
      setError(error, errorSize, "MPI_Iallreduce", code);
      return 1;
    }
    if (!complete(request, wait, timeout, error, errorSize))
      return 1;
  }
  return 0;
}

/// Copies `bytes` at `data` from rank `root` to every rank; gives up after
/// `timeout` seconds.
extern "C" int mp_mpi_broadcast(void *data, int64_t bytes, int32_t root,
                                double timeout, char *error, size_t errorSize) {
  if (bytes > INT32_MAX) {
    std::snprintf(error, errorSize, "broadcast of %lld bytes: too large",
                  static_cast<long long>(bytes));
    return 1;
  }
  MPI_Request request;
  if (int code = MPI_Ibcast(data, static_cast<int>(bytes), MPI_BYTE, root,
                            MPI_COMM_WORLD, &request)) {
    setError(error, errorSize, "MPI_Ibcast", code);
    return 1;
  }
  mp_runtime::CollectiveWait wait(timeout);
  return complete(request, wait, timeout, error, errorSize) ? 0 : 1;
}

extern "C" void mp_mpi_abort(int code) { MPI_Abort(MPI_COMM_WORLD, code); }

extern "C" void mp_mpi_finalize(void) {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized)
    MPI_Finalize();
}
