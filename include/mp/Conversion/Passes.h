//===- Passes.h - mp conversion passes --------------------------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef MP_CONVERSION_PASSES_H
#define MP_CONVERSION_PASSES_H

#include "mp/Conversion/MPToRuntime/MPToRuntime.h"
#include "mp/Conversion/MPToStandard/MPToStandard.h"

#include "mlir/Pass/Pass.h"

namespace mlir {
namespace mp {

#define GEN_PASS_DECL
#define GEN_PASS_REGISTRATION
#include "mp/Conversion/Passes.h.inc"

} // namespace mp
} // namespace mlir

#endif // MP_CONVERSION_PASSES_H
