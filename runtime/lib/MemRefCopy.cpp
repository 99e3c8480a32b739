//===- MemRefCopy.cpp - Strided copies for compiled code --------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// MLIR lowers a memref.copy between non-contiguous memrefs to a call of
// `memrefCopy(elementSize, source, target)` on unranked descriptors. The
// runtime provides it, so that compiled modules need no MLIR library at run
// time (they run where only the runtime is installed).
//
//===----------------------------------------------------------------------===//

#include <cstdint>
#include <cstring>
#include <vector>

namespace {
/// An unranked memref as MLIR passes it: the rank and a pointer to the
/// ranked descriptor {allocated, aligned, offset, sizes[rank], strides[rank]}.
struct UnrankedMemRef {
  int64_t rank;
  void *descriptor;
};

struct View {
  char *base;
  const int64_t *sizes, *strides;
  View(const UnrankedMemRef &m, int64_t elementSize) {
    auto *words = static_cast<const int64_t *>(m.descriptor);
    base = reinterpret_cast<char *>(words[1]) + words[2] * elementSize;
    sizes = words + 3;
    strides = words + 3 + m.rank;
  }
};
} // namespace

extern "C" void memrefCopy(int64_t elementSize, UnrankedMemRef *source,
                           UnrankedMemRef *target) {
  int64_t rank = source->rank;
  View from(*source, elementSize), to(*target, elementSize);
  if (rank == 0) {
    std::memmove(to.base, from.base, elementSize);
    return;
  }
  for (int64_t d = 0; d < rank; ++d)
    if (from.sizes[d] == 0)
      return;
  // Rows of the innermost dimension, copied whole when both are contiguous.
  int64_t inner = rank - 1, rowLength = from.sizes[inner];
  bool contiguous = from.strides[inner] == 1 && to.strides[inner] == 1;
  std::vector<int64_t> index(inner, 0);
  while (true) {
    int64_t fromOffset = 0, toOffset = 0;
    for (int64_t d = 0; d < inner; ++d) {
      fromOffset += index[d] * from.strides[d];
      toOffset += index[d] * to.strides[d];
    }
    if (contiguous) {
      std::memmove(to.base + toOffset * elementSize,
                   from.base + fromOffset * elementSize,
                   rowLength * elementSize);
    } else {
      for (int64_t i = 0; i < rowLength; ++i)
        std::memmove(to.base + (toOffset + i * to.strides[inner]) * elementSize,
                     from.base +
                         (fromOffset + i * from.strides[inner]) * elementSize,
                     elementSize);
    }
    int64_t d = inner - 1;
    for (; d >= 0; --d) {
      if (++index[d] < from.sizes[d])
        break;
      index[d] = 0;
    }
    if (d < 0)
      return;
  }
}
