//===- OutputFile.h - Files that passes write -------------------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// Report files named by pass options: opened with an error at the module on
// failure, and closed with every write checked (a full disk, /dev/full is an
// error at the module, not an abort when the stream is destroyed).
//
//===----------------------------------------------------------------------===//

#ifndef MP_UTILS_OUTPUTFILE_H
#define MP_UTILS_OUTPUTFILE_H

#include "mlir/IR/Operation.h"
#include "llvm/Support/ToolOutputFile.h"

#include <memory>

namespace mlir {
namespace mp {

/// Opens `path` ('-' is stdout) for `pass`'s `option`; emits an error at `op`
/// and returns null on failure.
std::unique_ptr<llvm::ToolOutputFile>
openOutput(Operation *op, StringRef pass, StringRef option, StringRef path);

/// Flushes and closes `file` (stdout is only flushed), keeping it; emits an
/// error at `op` if a write failed.
LogicalResult closeOutput(Operation *op, StringRef pass, StringRef option,
                          StringRef path,
                          std::unique_ptr<llvm::ToolOutputFile> file);

} // namespace mp
} // namespace mlir

#endif // MP_UTILS_OUTPUTFILE_H
