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
#include "mlir/IR/Matchers.h"
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

/// The indices from the first to the last element of `size` elements
/// `stride` apart, plus one; nothing on overflow.
static std::optional<int64_t> getExtent(int64_t size, int64_t stride) {
  int64_t span;
  if (size == 0)
    return 0;
  if (llvm::MulOverflow(size - 1, stride, span) ||
      llvm::AddOverflow(span, int64_t(1), span))
    return std::nullopt;
  return span;
}

/// Replaces `op` by a tensor.generate of `result` whose element at indices
/// `i` is `source`'s at `(i - offsets) / strides` where that falls inside
/// `source` on a multiple of the stride, and `value` elsewhere. An
/// elementwise producer of `source` used by nothing else (a cast) is
/// computed inside.
static void replaceByGenerate(RewriterBase &rewriter, Operation *op,
                              Value source, RankedTensorType result,
                              ArrayRef<int64_t> offsets,
                              ArrayRef<int64_t> strides, Value value) {
  auto sourceType = cast<RankedTensorType>(source.getType());
  Location loc = op->getLoc();
  rewriter.setInsertionPoint(op);
  auto generate =
      tensor::GenerateOp::create(rewriter, loc, result, ValueRange());
  Block *body = rewriter.createBlock(
      &generate.getBody(), {},
      SmallVector<Type>(result.getRank(), rewriter.getIndexType()),
      SmallVector<Location>(result.getRank(), loc));
  // Source indices, and whether all fall inside the source: i - offset below
  // the extent (size - 1) * stride + 1, unsigned (an index below the offset
  // wraps around), and a multiple of the stride.
  SmallVector<Value> indices;
  Value inside;
  auto both = [&](Value a, Value b) {
    return a ? arith::AndIOp::create(rewriter, loc, a, b) : b;
  };
  for (int64_t dim = 0, e = result.getRank(); dim < e; ++dim) {
    int64_t offset = offsets[dim], stride = strides[dim],
            size = sourceType.getDimSize(dim);
    Value index = body->getArgument(dim);
    if (offset)
      index = arith::SubIOp::create(
          rewriter, loc, index,
          arith::ConstantIndexOp::create(rewriter, loc, offset));
    if (!offset && stride == 1 && result.getDimSize(dim) == size) {
      indices.push_back(index);
      continue; // the whole dimension
    }
    Value extent =
        arith::ConstantIndexOp::create(rewriter, loc, *getExtent(size, stride));
    inside = both(inside, arith::CmpIOp::create(rewriter, loc,
                                                arith::CmpIPredicate::ult,
                                                index, extent));
    if (stride != 1) {
      Value strideValue = arith::ConstantIndexOp::create(rewriter, loc, stride);
      inside = both(
          inside, arith::CmpIOp::create(
                      rewriter, loc, arith::CmpIPredicate::eq,
                      arith::RemUIOp::create(rewriter, loc, index, strideValue),
                      arith::ConstantIndexOp::create(rewriter, loc, 0)));
      index = arith::DivUIOp::create(rewriter, loc, index, strideValue);
    }
    indices.push_back(index);
  }
  Type element = result.getElementType();
  linalg::GenericOp producer = getInlinableProducer(source);
  Value padded;
  if (!inside) {
    padded = readElement(rewriter, loc, source, producer, indices);
  } else {
    auto ifOp = scf::IfOp::create(rewriter, loc, TypeRange{element}, inside,
                                  /*withElseRegion=*/true);
    rewriter.setInsertionPointToStart(ifOp.thenBlock());
    Value read = readElement(rewriter, loc, source, producer, indices);
    scf::YieldOp::create(rewriter, loc, read);
    rewriter.setInsertionPointToStart(ifOp.elseBlock());
    scf::YieldOp::create(rewriter, loc, value);
    rewriter.setInsertionPointAfter(ifOp);
    padded = ifOp.getResult(0);
  }
  tensor::YieldOp::create(rewriter, loc, padded);
  rewriter.replaceOp(op, generate.getResult());
  if (producer)
    rewriter.eraseOp(producer);
}

/// `pad` as a tensor.generate, if its shapes and low padding are static and
/// its padding value is a constant.
static LogicalResult generatePad(RewriterBase &rewriter, tensor::PadOp pad) {
  Value value = pad.getConstantPaddingValue();
  if (!value || !pad.getSourceType().hasStaticShape() ||
      !pad.getResultType().hasStaticShape() ||
      ShapedType::isDynamicShape(pad.getStaticLow()))
    return failure();
  replaceByGenerate(
      rewriter, pad, pad.getSource(), pad.getResultType(), pad.getStaticLow(),
      SmallVector<int64_t>(pad.getResultType().getRank(), 1), value);
  return success();
}

/// `insert`, a slice inserted into a tensor that a `linalg.fill` of a
/// constant makes for it alone (a padded or, with strides, dilated
/// gradient: the backward of a strided convolution), as a tensor.generate,
/// if its shapes, offsets and strides are static and it drops no dimension.
static LogicalResult generateInsert(RewriterBase &rewriter,
                                    tensor::InsertSliceOp insert) {
  auto fill = insert.getDest().getDefiningOp<linalg::FillOp>();
  RankedTensorType source = insert.getSourceType();
  RankedTensorType result = insert.getResultType();
  if (!fill || !insert.getDest().hasOneUse() || !source.hasStaticShape() ||
      !result.hasStaticShape() || source.getRank() != result.getRank() ||
      ShapedType::isDynamicShape(insert.getStaticOffsets()) ||
      ShapedType::isDynamicShape(insert.getStaticStrides()) ||
      llvm::any_of(insert.getStaticStrides(),
                   [](int64_t stride) { return stride < 1; }) ||
      llvm::any_of(llvm::zip(source.getShape(), insert.getStaticStrides()),
                   [](auto sizeAndStride) {
                     return !getExtent(std::get<0>(sizeAndStride),
                                       std::get<1>(sizeAndStride));
                   }) ||
      !matchPattern(fill.getInputs()[0], m_Constant()))
    return failure();
  replaceByGenerate(rewriter, insert, insert.getSource(), result,
                    insert.getStaticOffsets(), insert.getStaticStrides(),
                    fill.getInputs()[0]);
  rewriter.eraseOp(fill);
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
    SmallVector<tensor::InsertSliceOp> inserts;
    getOperation()->walk([&](tensor::InsertSliceOp insert) {
      // A gradient spread into zeros for cuDNN is its backward data's
      // (mp-gpu-library-conv finds the insertion).
      if (insert->use_empty() || !llvm::all_of(insert->getUses(), isCudnnImage))
        inserts.push_back(insert);
    });
    IRRewriter rewriter(&getContext());
    for (tensor::PadOp pad : pads)
      if (succeeded(generatePad(rewriter, pad)))
        ++numGenerated;
    for (tensor::InsertSliceOp insert : inserts)
      if (succeeded(generateInsert(rewriter, insert)))
        ++numInserts;
  }
};
} // namespace
