//===- RowLoops.cpp - Linalg ops as loops around vector rows --------------===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "mp/Codegen/CPU/RowLoops.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;

SmallVector<Value> mlir::mp::getRowIndices(OpBuilder &b, Location loc,
                                           AffineMap map, ValueRange loops) {
  SmallVector<Value> indices;
  for (AffineExpr expr : map.getResults())
    indices.push_back(getValueOrCreateConstantIndexOp(
        b, loc,
        affine::makeComposedFoldedAffineApply(
            b, loc, AffineMap::get(loops.size(), 0, expr),
            getAsOpFoldResult(loops))));
  return indices;
}

scf::LoopNest mlir::mp::buildRowLoops(
    OpBuilder &b, Location loc, ArrayRef<int64_t> ranges, ValueRange inits,
    function_ref<Value(OpBuilder &, Location, ArrayRef<Value>, Value)> body) {
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  SmallVector<Value> lbs(ranges.size() - 1, zero),
      steps(ranges.size() - 1, one), ubs;
  for (int64_t range : ranges.drop_back())
    ubs.push_back(arith::ConstantIndexOp::create(b, loc, range));
  return scf::buildLoopNest(
      b, loc, lbs, ubs, steps, inits,
      [&](OpBuilder &b, Location loc, ValueRange ivs, ValueRange outputs) {
        SmallVector<Value> rowStart(ivs);
        rowStart.push_back(zero);
        return scf::ValueVector{body(b, loc, rowStart, outputs.front())};
      });
}
