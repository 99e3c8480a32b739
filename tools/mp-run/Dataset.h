//===- Dataset.h - Image classification data sets for mp-run ----*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef MP_TOOLS_MPRUN_DATASET_H
#define MP_TOOLS_MPRUN_DATASET_H

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

/// Loads a data set by name ("fashion-mnist": Debian's dataset-fashion-mnist,
/// gzipped IDX files under /usr/share/datasets/fashion-mnist, or the directory
/// in $MP_DATASET_DIR).
llvm::Error loadDataset(const std::string &name, Dataset &out);

} // namespace mp_run

#endif // MP_TOOLS_MPRUN_DATASET_H
