//===- GeneratePads.cpp - tensor.pad as one kernel ------------------------===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "mp/Codegen/GPU/Passes.h"
#include "mp/Dialect/MP/IR/MPDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace mp {
#define GEN_PASS_DEF_GPUGENERATEPADSPASS
#include "mp/Codegen/GPU/Passes.h.inc"
} // namespace mp
} // namespace mlir

using namespace mlir;
using namespace mlir::mp;

/// The elementwise generic whose only use is `value`'s (a pad's source),
/// whose body can be evaluated per element: all loops parallel, an identity
/// map for its one result, projected permutations (transposes, broadcasts)
/// for its inputs, no linalg.index and its init unread.
static linalg::GenericOp getInlinableProducer(Value value) {
  auto producer = value.getDefiningOp<linalg::GenericOp>();
  if (!producer || producer->getNumResults() != 1 || !value.hasOneUse() ||
      producer.getNumLoops() != producer.getNumParallelLoops() ||
      !producer.getIndexingMapsArray().back().isIdentity() ||
      !llvm::all_of(producer.getIndexingMapsArray(),
                    [](AffineMap map) {
                      return map.isProjectedPermutation(
                          /*allowZeroInResults=*/false);
                    }) ||
      !producer.getRegionOutputArgs()[0].use_empty() ||
      producer.getBody()->getOps<linalg::IndexOp>().begin() !=
          producer.getBody()->getOps<linalg::IndexOp>().end())
    return nullptr;
  return producer;
}

/// The element of `source` at `indices`: read, or computed from the inputs
/// of the elementwise producer `producer` (if not null) with its body.
static Value readElement(RewriterBase &rewriter, Location loc, Value source,
                         linalg::GenericOp producer, ValueRange indices) {
  if (!producer)
    return tensor::ExtractOp::create(rewriter, loc, source, indices);
  IRMapping mapping;
  for (OpOperand *input : producer.getDpsInputOperands()) {
    AffineMap map = producer.getMatchingIndexingMap(input);
    SmallVector<Value> inputIndices;
    for (unsigned r = 0; r < map.getNumResults(); ++r)
      inputIndices.push_back(indices[map.getDimPosition(r)]);
    mapping.map(
        producer.getMatchingBlockArgument(input),
        tensor::ExtractOp::create(rewriter, loc, input->get(), inputIndices));
  }
  Block *body = producer.getBody();
  for (Operation &op : body->without_terminator())
    rewriter.clone(op, mapping);
  return mapping.lookupOrDefault(body->getTerminator()->getOperand(0));
}

/// `pad` as a tensor.generate, if its shapes and low padding are static and
/// its padding value is a constant. An elementwise producer of its source
/// used by nothing else (a cast) is computed inside.
static LogicalResult generatePad(RewriterBase &rewriter, tensor::PadOp pad) {
  Value value = pad.getConstantPaddingValue();
  RankedTensorType source = pad.getSourceType();
  RankedTensorType result = pad.getResultType();
  if (!value || !source.hasStaticShape() || !result.hasStaticShape() ||
      ShapedType::isDynamicShape(pad.getStaticLow()))
    return failure();
  Location loc = pad.getLoc();
  rewriter.setInsertionPoint(pad);
  auto generate =
      tensor::GenerateOp::create(rewriter, loc, result, ValueRange());
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
  linalg::GenericOp producer = getInlinableProducer(pad.getSource());
  Value padded;
  if (!inside) {
    padded = readElement(rewriter, loc, pad.getSource(), producer, indices);
  } else {
    auto ifOp = scf::IfOp::create(rewriter, loc, TypeRange{element}, inside,
                                  /*withElseRegion=*/true);
    rewriter.setInsertionPointToStart(ifOp.thenBlock());
    Value read = readElement(rewriter, loc, pad.getSource(), producer, indices);
    scf::YieldOp::create(rewriter, loc, read);
    rewriter.setInsertionPointToStart(ifOp.elseBlock());
    scf::YieldOp::create(rewriter, loc, value);
    rewriter.setInsertionPointAfter(ifOp);
    padded = ifOp.getResult(0);
  }
  tensor::YieldOp::create(rewriter, loc, padded);
  rewriter.replaceOp(pad, generate.getResult());
  if (producer)
    rewriter.eraseOp(producer);
  return success();
}

/// Whether `use` is the image of a convolution given to cuDNN, which takes
/// the padding itself (mp-gpu-library-conv).
static bool isCudnnImage(OpOperand &use) {
  auto conv = dyn_cast<linalg::LinalgOp>(use.getOwner());
  return conv && use.getOperandNumber() == 0 &&
         conv->hasAttr(MPDialect::GpuGemmAttrHelper::getNameStr()) &&
         linalg::isaConvolutionOpInterface(conv);
}

namespace {
struct GPUGeneratePadsPass
    : public mp::impl::GPUGeneratePadsPassBase<GPUGeneratePadsPass> {
  void runOnOperation() override {
    SmallVector<tensor::PadOp> pads;
    getOperation()->walk([&](tensor::PadOp pad) {
      if (pad->use_empty() || !llvm::all_of(pad->getUses(), isCudnnImage))
        pads.push_back(pad);
    });
    IRRewriter rewriter(&getContext());
    for (tensor::PadOp pad : pads)
      if (succeeded(generatePad(rewriter, pad)))
        ++numGenerated;
  }
};
} // namespace
