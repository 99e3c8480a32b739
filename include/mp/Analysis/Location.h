//===- Location.h - Printing locations for users ----------------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef MP_ANALYSIS_LOCATION_H
#define MP_ANALYSIS_LOCATION_H

#include "mlir/IR/Location.h"

#include <string>

namespace mlir {
namespace mp {

/// "file:line:col" for file locations (the innermost one found in fused,
/// named or call-site locations), "unknown" otherwise.
std::string formatLocation(Location loc);

} // namespace mp
} // namespace mlir

#endif // MP_ANALYSIS_LOCATION_H
