//===- StridedCopiesToLinalg.cpp - mp-strided-copies-to-linalg --*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "mp/Codegen/CPU/Passes.h"
#include "mp/Utils/Bufferization.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"

namespace mlir {
namespace mp {
#define GEN_PASS_DEF_STRIDEDCOPIESTOLINALGPASS
#include "mp/Codegen/CPU/Passes.h.inc"
} // namespace mp
} // namespace mlir

using namespace mlir;
using namespace mlir::mp;

/// Whether the ranked buffer type `type` is not one row-major block (a copy
/// of it would go through `memrefCopy`).
static bool isStrided(Type type) {
  return !memref::isStaticShapeAndContiguousRowMajor(cast<MemRefType>(type));
}

namespace {
struct StridedCopiesToLinalgPass
    : public mp::impl::StridedCopiesToLinalgPassBase<
          StridedCopiesToLinalgPass> {
  void runOnOperation() override {
    numCopies += copiesToLinalg(getOperation(), [](memref::CopyOp copy) {
      return isStrided(copy.getSource().getType()) ||
             isStrided(copy.getTarget().getType());
    });
  }
};
} // namespace
