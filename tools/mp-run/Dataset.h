//===- Dataset.h - Image classification data sets for mp-run ----*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef MP_TOOLS_MPRUN_DATASET_H
#define MP_TOOLS_MPRUN_DATASET_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mp_run {

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

/// Parses the decompressed bytes of an IDX file of unsigned bytes with `rank`
/// dimensions (`name` in errors): `data` points into `bytes`.
llvm::Error parseIdx(llvm::ArrayRef<uint8_t> bytes, const std::string &name,
                     unsigned rank, std::vector<uint32_t> &dims,
                     llvm::ArrayRef<uint8_t> &data);

/// Builds a split from the bytes of its IDX image (3-d) and label (1-d)
/// files, DIR/PREFIX-{images-idx3,labels-idx1}-ubyte.gz, checking that they
/// agree and that every label lies in [0, numClasses).
llvm::Error parseSplit(llvm::ArrayRef<uint8_t> imageFile,
                       llvm::ArrayRef<uint8_t> labelFile,
                       const std::string &dir, const std::string &prefix,
                       int64_t numClasses, Split &split);

/// Loads a data set by name ("fashion-mnist": Debian's dataset-fashion-mnist,
/// gzipped IDX files under /usr/share/datasets/fashion-mnist, or the directory
/// in $MP_DATASET_DIR).
llvm::Error loadDataset(const std::string &name, Dataset &out);

} // namespace mp_run

#endif // MP_TOOLS_MPRUN_DATASET_H
