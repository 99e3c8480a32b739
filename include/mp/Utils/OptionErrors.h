//===- OptionErrors.h - Errors for invalid pass options ---------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef MP_UTILS_OPTIONERRORS_H
#define MP_UTILS_OPTIONERRORS_H

#include "mlir/IR/Diagnostics.h"

namespace mlir {
namespace mp {

/// Emits "PASS: OPTION=VALUE is invalid: EXPECTED" at `loc`; returns failure.
LogicalResult emitOptionError(Location loc, StringRef pass, StringRef option,
                              double value, StringRef expected);

} // namespace mp
} // namespace mlir

#endif // MP_UTILS_OPTIONERRORS_H
