//===- Passes.h - mp transformation passes ----------------------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef MP_DIALECT_MP_TRANSFORMS_PASSES_H
#define MP_DIALECT_MP_TRANSFORMS_PASSES_H

#include "mp/Dialect/MP/IR/MPDialect.h"
#include "mp/Utils/EnumOptions.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
class RewritePatternSet;
namespace mp {

#define GEN_PASS_DECL
#include "mp/Dialect/MP/Transforms/Passes.h.inc"

/// Patterns of mp-optimize-casts that rewrite locally (round trips, casts of
/// constants and of broadcasts, casts before slices).
void populateOptimizeCastsPatterns(RewritePatternSet &patterns);

#define GEN_PASS_REGISTRATION
#include "mp/Dialect/MP/Transforms/Passes.h.inc"

} // namespace mp
} // namespace mlir

#endif // MP_DIALECT_MP_TRANSFORMS_PASSES_H
