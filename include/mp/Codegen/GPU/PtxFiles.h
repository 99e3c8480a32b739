//===- PtxFiles.h - Where the PTX of each GPU module is kept ----*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef MP_CODEGEN_GPU_PTXFILES_H
#define MP_CODEGEN_GPU_PTXFILES_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace mlir {
namespace mp {

/// The file in `dir` that holds the PTX of GPU module `module` for `chip`:
/// `dir/<module>.<chip>.ptx`, where mp-gpu-fatbin{ptx-dir=DIR} (and so
/// `mp-run --save-ptx DIR`) keeps it.
inline std::string getPtxFilePath(llvm::StringRef dir, llvm::StringRef module,
                                  llvm::StringRef chip) {
  return (dir + "/" + module + "." + chip + ".ptx").str();
}

} // namespace mp
} // namespace mlir

#endif // MP_CODEGEN_GPU_PTXFILES_H
