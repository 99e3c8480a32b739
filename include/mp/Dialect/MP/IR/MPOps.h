//===- MPOps.h - mp operations ----------------------------------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef MP_DIALECT_MP_IR_MPOPS_H
#define MP_DIALECT_MP_IR_MPOPS_H

#include "mp/Dialect/MP/IR/MPDialect.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define GET_OP_CLASSES
#include "mp/Dialect/MP/IR/MPOps.h.inc"

#endif // MP_DIALECT_MP_IR_MPOPS_H
