//===- OptionErrors.cpp - Errors for invalid pass options -----------------===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "mp/Utils/OptionErrors.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

LogicalResult mlir::mp::emitOptionError(Location loc, StringRef pass,
                                        StringRef option, double value,
                                        StringRef expected) {
  std::string text;
  llvm::raw_string_ostream(text) << llvm::format("%g", value);
  return emitError(loc) << pass << ": " << option << "=" << text
                        << " is invalid: " << expected;
}
