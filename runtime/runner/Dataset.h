//===- Dataset.h - Image classification data sets for training --*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// The data sets mp-run and mp-exec train on. No MLIR or LLVM dependency:
// functions return an error message, empty on success.
//
//===----------------------------------------------------------------------===//

#ifndef MP_RUNTIME_RUNNER_DATASET_H
#define MP_RUNTIME_RUNNER_DATASET_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace mp_runner {

/// Images scaled to [0, 1] (row-major, `rows * cols` floats each) and their
/// class labels.
struct Split {
  int64_t count = 0, rows = 0, cols = 0;
  std::vector<float> images;
  std::vector<int32_t> labels;
};

struct Dataset {
  std::string name;
  int64_t numClasses = 0;
  Split train, test;
};

/// Bytes that something else owns.
struct Bytes {
  const uint8_t *data = nullptr;
  size_t size = 0;
};

/// Parses the decompressed bytes of an IDX file of unsigned bytes with
/// `rank` dimensions (named `name` in errors): sets `dims` and `data` (the
/// payload, inside `bytes`).
[[nodiscard]] std::string parseIdx(Bytes bytes, const std::string &name,
                                   unsigned rank, std::vector<uint32_t> &dims,
                                   Bytes &data);

/// Builds `split` from an image file and a label file (decompressed) of the
/// split `prefix` in `dir`; checks that they agree and that every label is
/// in [0, numClasses).
[[nodiscard]] std::string parseSplit(Bytes imageFile, Bytes labelFile,
                                     const std::string &dir,
                                     const std::string &prefix,
                                     int64_t numClasses, Split &split);

/// Loads the data set `name` (fashion-mnist: from $MP_DATASET_DIR or
/// Debian's /usr/share/datasets/fashion-mnist).
[[nodiscard]] std::string loadDataset(const std::string &name, Dataset &out);

} // namespace mp_runner

#endif // MP_RUNTIME_RUNNER_DATASET_H
