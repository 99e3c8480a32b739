//===- MPOps.td - mp operations ----------------------------*- tablegen -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef MP_DIALECT_MP_IR_MPOPS_TD
#define MP_DIALECT_MP_IR_MPOPS_TD

include "mp/Dialect/MP/IR/MPDialect.td"
include "mp/Dialect/MP/IR/MPAttrs.td"
include "mlir/IR/OpBase.td"

// The AMP rewrite needs no op of its own: graphs use upstream ops and casts
// (`arith.truncf`/`arith.extf`). Loss-scaling ops will be defined here.

#endif // MP_DIALECT_MP_IR_MPOPS_TD
