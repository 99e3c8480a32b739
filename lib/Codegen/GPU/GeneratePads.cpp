//===- GeneratePads.cpp - tensor.pad as one kernel ------------------------===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "mp/Codegen/GPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace mp {
#define GEN_PASS_DEF_GPUGENERATEPADSPASS
#include "mp/Codegen/GPU/Passes.h.inc"
} // namespace mp
} // namespace mlir

using namespace mlir;
using namespace mlir::mp;

/// `pad` as a tensor.generate, if its shapes and low padding are static and
/// its padding value is a constant.
static LogicalResult generatePad(RewriterBase &rewriter, tensor::PadOp pad) {
  Value value = pad.getConstantPaddingValue();
  RankedTensorType source = pad.getSourceType();
  RankedTensorType result = pad.getResultType();
  if (!value || !source.hasStaticShape() || !result.hasStaticShape() ||
      ShapedType::isDynamicShape(pad.getStaticLow()))
    return failure();
  Location loc = pad.getLoc();
  rewriter.setInsertionPoint(pad);
  auto generate = tensor::GenerateOp::create(rewriter, loc, result,
                                             ValueRange());
  Block *body = rewriter.createBlock(
      &generate.getBody(), {},
      SmallVector<Type>(result.getRank(), rewriter.getIndexType()),
      SmallVector<Location>(result.getRank(), loc));
  // Source indices, and whether all fall inside the source: i - low < size,
  // unsigned (an index below the low padding wraps around).
  SmallVector<Value> indices;
  Value inside;
  for (auto [dim, low] : llvm::enumerate(pad.getStaticLow())) {
    Value index = body->getArgument(dim);
    if (low)
      index = arith::SubIOp::create(
          rewriter, loc, index,
          arith::ConstantIndexOp::create(rewriter, loc, low));
    indices.push_back(index);
    if (!low && result.getDimSize(dim) == source.getDimSize(dim))
      continue; // not padded along `dim`
    Value size =
        arith::ConstantIndexOp::create(rewriter, loc, source.getDimSize(dim));
    Value in = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult,
                                     index, size);
    inside = inside ? arith::AndIOp::create(rewriter, loc, inside, in) : in;
  }
  Type element = result.getElementType();
  Value padded;
  if (!inside) {
    padded = tensor::ExtractOp::create(rewriter, loc, pad.getSource(), indices);
  } else {
    auto ifOp = scf::IfOp::create(rewriter, loc, TypeRange{element}, inside,
                                  /*withElseRegion=*/true);
    rewriter.setInsertionPointToStart(ifOp.thenBlock());
    Value read =
        tensor::ExtractOp::create(rewriter, loc, pad.getSource(), indices);
    scf::YieldOp::create(rewriter, loc, read);
    rewriter.setInsertionPointToStart(ifOp.elseBlock());
    scf::YieldOp::create(rewriter, loc, value);
    rewriter.setInsertionPointAfter(ifOp);
    padded = ifOp.getResult(0);
  }
  tensor::YieldOp::create(rewriter, loc, padded);
  rewriter.replaceOp(pad, generate.getResult());
  return success();
}

namespace {
struct GPUGeneratePadsPass
    : public mp::impl::GPUGeneratePadsPassBase<GPUGeneratePadsPass> {
  void runOnOperation() override {
    SmallVector<tensor::PadOp> pads;
    getOperation()->walk([&](tensor::PadOp pad) { pads.push_back(pad); });
    IRRewriter rewriter(&getContext());
    for (tensor::PadOp pad : pads)
      if (succeeded(generatePad(rewriter, pad)))
        ++numGenerated;
  }
};
} // namespace
