//===- OutputFile.cpp - Files that passes write -----------------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "mp/Utils/OutputFile.h"

#include "mlir/Support/FileUtilities.h"

using namespace mlir;

std::unique_ptr<llvm::ToolOutputFile> mp::openOutput(Operation *op,
                                                     StringRef pass,
                                                     StringRef option,
                                                     StringRef path) {
  std::string message;
  auto file = openOutputFile(path, &message);
  if (!file)
    op->emitError() << pass << ": cannot write " << option << " file '" << path
                    << "': " << message;
  return file;
}

LogicalResult mp::closeOutput(Operation *op, StringRef pass, StringRef option,
                              StringRef path,
                              std::unique_ptr<llvm::ToolOutputFile> file) {
  llvm::raw_fd_ostream &os = file->os();
  // stdout stays open for what the tool prints after the pass.
  if (path == "-")
    os.flush();
  else
    os.close();
  if (std::error_code ec = os.error()) {
    os.clear_error();
    return op->emitError() << pass << ": cannot write " << option << " file '"
                           << path << "': " << ec.message();
  }
  file->keep();
  return success();
}
