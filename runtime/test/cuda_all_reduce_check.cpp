//===- cuda_all_reduce_check.cpp - The GPU all-reduce, rank by rank -------===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// mp-cuda-all-reduce-check [freeze | freeze-first]: in every rank of an
// mpirun, calls the CUDA backend's all-reduce (mp_cuda_all_reduce, what
// compiled data-parallel GPU steps call) on buffers of the backend and
// compares each result with the reduction, computed here, of what every
// rank contributed.
// Run with the fake driver and the fake NCCL (MP_CUDA_DRIVER,
// MP_NCCL_LIBRARY), whose device memory is host memory. With `freeze`
// (`freeze-first`), rank 1 stops before the second (first) all-reduce: the
// others must give up after $MP_COLLECTIVE_TIMEOUT and end the run.
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

#include <algorithm>
#include <cmath>
#include <thread>

extern "C" void *_mlir_memref_to_llvm_alloc(size_t size);
extern "C" void _mlir_memref_to_llvm_free(void *pointer);

using mp_runtime::fromF16;
using mp_runtime::toF16;

namespace {
int32_t rank = 0, size = 1;

/// What rank `r` contributes at element `i`: values in [-4, 4] that differ
/// by rank and element, exact in f16 and bf16 after rounding.
float contribution(int32_t r, int64_t i, int seed) {
  int64_t k = (r * 7919 + i * 104729 + seed * 31337) % 2001;
  return static_cast<float>(k - 1000) / 250.0f;
}

/// Rank `r`'s element `i` as sent (in `dtype`), widened to double.
double sent(int32_t r, int64_t i, int seed, mp_dtype dtype) {
  float v = contribution(r, i, seed);
  switch (dtype) {
  case MP_F16:
    return fromF16(toF16(v));
  case MP_BF16:
    return mp_runtime::fromBF16(mp_runtime::toBF16(v));
  case MP_I1:
    return v > 3.5f ? 1 : 0;
  default:
    return v;
  }
}

/// Reduces `n` elements of `dtype` with `kind` (0 sum, 1 max) and prints
/// whether every element is what the ranks' contributions reduce to.
void check(mp_dtype dtype, int32_t kind, int64_t n, int seed) {
  size_t bytes = n * mp_dtype_size(dtype);
  void *buffer = _mlir_memref_to_llvm_alloc(bytes);
  for (int64_t i = 0; i < n; ++i) {
    double v = sent(rank, i, seed, dtype);
    switch (dtype) {
    case MP_F16:
      static_cast<uint16_t *>(buffer)[i] = toF16(static_cast<float>(v));
      break;
    case MP_BF16:
      static_cast<uint16_t *>(buffer)[i] =
          mp_runtime::toBF16(static_cast<float>(v));
      break;
    case MP_I1:
      static_cast<uint8_t *>(buffer)[i] = static_cast<uint8_t>(v);
      break;
    default:
      static_cast<float *>(buffer)[i] = static_cast<float>(v);
    }
  }
  mp_cuda_all_reduce(reinterpret_cast<intptr_t>(buffer), n, dtype, kind);
  bool ok = true, nonzero = false;
  for (int64_t i = 0; i < n; ++i) {
    double want = kind == 1 ? -INFINITY : 0;
    for (int32_t r = 0; r < size; ++r)
      want = kind == 1 ? std::max(want, sent(r, i, seed, dtype))
                       : want + sent(r, i, seed, dtype);
    double got;
    switch (dtype) {
    case MP_F16:
      // Sums of a few f16 (bf16) values are exact in f32: rounded once.
      want = fromF16(toF16(static_cast<float>(want)));
      got = fromF16(static_cast<uint16_t *>(buffer)[i]);
      break;
    case MP_BF16:
      want = mp_runtime::fromBF16(mp_runtime::toBF16(static_cast<float>(want)));
      got = mp_runtime::fromBF16(static_cast<uint16_t *>(buffer)[i]);
      break;
    case MP_I1:
      got = static_cast<uint8_t *>(buffer)[i];
      break;
    default:
      got = static_cast<float *>(buffer)[i];
    }
    // f32 sums may be added in any order: within 1e-6 relative.
    ok &= dtype == MP_F32 && kind == 0
              ? std::fabs(got - want) <= 1e-6 * std::max(1.0, std::fabs(want))
              : got == want;
    nonzero |= got != 0;
  }
  std::printf("rank %d: %s %s of %lld: %s (any nonzero: %s)\n", rank,
              mp_dtype_name(dtype), kind == 1 ? "max" : "sum",
              static_cast<long long>(n), ok ? "ok" : "WRONG",
              nonzero ? "true" : "false");
  std::fflush(stdout);
  _mlir_memref_to_llvm_free(buffer);
}
} // namespace

int main(int argc, char **argv) {
  std::string mode = argc > 1 ? argv[1] : "";
  if (mp_world_init(&rank, &size) != MP_OK) {
    std::fprintf(stderr, "mp_world_init: %s\n", mp_last_error());
    return 1;
  }
  auto freezeIf = [&](const char *when) {
    if (mode == when && rank == 1)
      std::this_thread::sleep_for(std::chrono::hours(1));
  };
  freezeIf("freeze-first");
  check(MP_F32, 0, 1000, 1);
  freezeIf("freeze");
  check(MP_F32, 1, 77, 2);
  check(MP_F16, 0, 513, 3);
  check(MP_BF16, 0, 64, 4);
  check(MP_I1, 1, 50, 5);
  mp_world_finalize();
  return 0;
}
