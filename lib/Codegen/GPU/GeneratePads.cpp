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

/// Whether the body of `producer` can be evaluated per element: an
/// elementwise generic (all loops parallel), an identity map for its one
/// result, projected permutations (transposes, broadcasts) for its inputs,
/// no linalg.index and its init unread.
static bool isInlinable(linalg::GenericOp producer) {
  return producer->getNumResults() == 1 &&
         producer.getNumLoops() == producer.getNumParallelLoops() &&
         producer.getIndexingMapsArray().back().isIdentity() &&
         llvm::all_of(producer.getIndexingMapsArray(),
                      [](AffineMap map) {
                        return map.isProjectedPermutation(
                            /*allowZeroInResults=*/false);
                      }) &&
         producer.getRegionOutputArgs()[0].use_empty() &&
         producer.getBody()->getOps<linalg::IndexOp>().begin() ==
             producer.getBody()->getOps<linalg::IndexOp>().end();
}

/// The element of `source` at `indices`: read, or, where `source` is the
/// result of a producer in `absorbed`, computed from that producer's inputs
/// (recursively) with its body.
static Value readElement(RewriterBase &rewriter, Location loc, Value source,
                         const llvm::SetVector<linalg::GenericOp> &absorbed,
                         ValueRange indices) {
  auto producer = source.getDefiningOp<linalg::GenericOp>();
  if (!producer || !absorbed.contains(producer))
    return tensor::ExtractOp::create(rewriter, loc, source, indices);
  IRMapping mapping;
  for (OpOperand *input : producer.getDpsInputOperands()) {
    AffineMap map = producer.getMatchingIndexingMap(input);
    SmallVector<Value> inputIndices;
    for (unsigned r = 0; r < map.getNumResults(); ++r)
      inputIndices.push_back(indices[map.getDimPosition(r)]);
    mapping.map(
        producer.getMatchingBlockArgument(input),
        readElement(rewriter, loc, input->get(), absorbed, inputIndices));
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
/// `source` on a multiple of the stride, and `value` elsewhere. The
/// producers in `absorbed` are computed inside.
static void
replaceByGenerate(RewriterBase &rewriter, Operation *op, Value source,
                  RankedTensorType result, ArrayRef<int64_t> offsets,
                  ArrayRef<int64_t> strides, Value value,
                  const llvm::SetVector<linalg::GenericOp> &absorbed) {
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
  Value padded;
  if (!inside) {
    padded = readElement(rewriter, loc, source, absorbed, indices);
  } else {
    auto ifOp = scf::IfOp::create(rewriter, loc, TypeRange{element}, inside,
                                  /*withElseRegion=*/true);
    rewriter.setInsertionPointToStart(ifOp.thenBlock());
    Value read = readElement(rewriter, loc, source, absorbed, indices);
    scf::YieldOp::create(rewriter, loc, read);
    rewriter.setInsertionPointToStart(ifOp.elseBlock());
    scf::YieldOp::create(rewriter, loc, value);
    rewriter.setInsertionPointAfter(ifOp);
    padded = ifOp.getResult(0);
  }
  tensor::YieldOp::create(rewriter, loc, padded);
  rewriter.replaceOp(op, generate.getResult());
}

/// Whether `pad` can be a tensor.generate: its shapes and low padding are
/// static and its padding value is a constant.
static bool canGenerate(tensor::PadOp pad) {
  return pad.getConstantPaddingValue() &&
         pad.getSourceType().hasStaticShape() &&
         pad.getResultType().hasStaticShape() &&
         !ShapedType::isDynamicShape(pad.getStaticLow());
}

static void generate(RewriterBase &rewriter, tensor::PadOp pad,
                     const llvm::SetVector<linalg::GenericOp> &absorbed) {
  replaceByGenerate(rewriter, pad, pad.getSource(), pad.getResultType(),
                    pad.getStaticLow(),
                    SmallVector<int64_t>(pad.getResultType().getRank(), 1),
                    pad.getConstantPaddingValue(), absorbed);
}

/// Whether `insert` can be a tensor.generate: a slice inserted into a
/// tensor that a `linalg.fill` of a constant makes for it alone (a padded
/// or, with strides, dilated gradient: the backward of a strided
/// convolution), its shapes, offsets and strides static, no dimension
/// dropped.
static bool canGenerate(tensor::InsertSliceOp insert) {
  auto fill = insert.getDest().getDefiningOp<linalg::FillOp>();
  RankedTensorType source = insert.getSourceType();
  RankedTensorType result = insert.getResultType();
  return fill && insert.getDest().hasOneUse() && source.hasStaticShape() &&
         result.hasStaticShape() && source.getRank() == result.getRank() &&
         !ShapedType::isDynamicShape(insert.getStaticOffsets()) &&
         !ShapedType::isDynamicShape(insert.getStaticStrides()) &&
         llvm::all_of(llvm::zip(source.getShape(), insert.getStaticStrides()),
                      [](auto sizeAndStride) {
                        auto [size, stride] = sizeAndStride;
                        return stride >= 1 && getExtent(size, stride);
                      }) &&
         matchPattern(fill.getInputs()[0], m_Constant());
}

static void generate(RewriterBase &rewriter, tensor::InsertSliceOp insert,
                     const llvm::SetVector<linalg::GenericOp> &absorbed) {
  auto fill = insert.getDest().getDefiningOp<linalg::FillOp>();
  replaceByGenerate(rewriter, insert, insert.getSource(),
                    insert.getResultType(), insert.getStaticOffsets(),
                    insert.getStaticStrides(), fill.getInputs()[0], absorbed);
  rewriter.eraseOp(fill);
}

/// The elementwise producers (isInlinable) in `root` that the `generated`
/// ops compute instead of reading their results: those whose every reader
/// is a generated op reading it as its source, or another absorbed producer
/// (a cast that a pad and a transpose before another pad read). Readers
/// come before their producers.
static llvm::SetVector<linalg::GenericOp>
getAbsorbed(Operation *root, const llvm::SetVector<Operation *> &generated) {
  SmallVector<linalg::GenericOp> candidates;
  root->walk([&](linalg::GenericOp producer) {
    if (isInlinable(producer) && !producer->use_empty())
      candidates.push_back(producer);
  });
  llvm::SetVector<linalg::GenericOp> absorbed;
  auto isAbsorbedUse = [&](OpOperand &use) {
    Operation *user = use.getOwner();
    if (generated.contains(user))
      return use.getOperandNumber() == 0; // the source
    auto generic = dyn_cast<linalg::GenericOp>(user);
    return generic && absorbed.contains(generic) && generic.isDpsInput(&use);
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (linalg::GenericOp producer : candidates)
      if (!absorbed.contains(producer) &&
          llvm::all_of(producer->getUses(), isAbsorbedUse))
        changed |= absorbed.insert(producer);
  }
  return absorbed;
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
    llvm::erase_if(pads, [](tensor::PadOp pad) { return !canGenerate(pad); });
    llvm::erase_if(inserts, [](tensor::InsertSliceOp insert) {
      return !canGenerate(insert);
    });
    llvm::SetVector<Operation *> generated;
    generated.insert_range(pads);
    generated.insert_range(inserts);
    llvm::SetVector<linalg::GenericOp> absorbed =
        getAbsorbed(getOperation(), generated);
    IRRewriter rewriter(&getContext());
    for (tensor::PadOp pad : pads)
      generate(rewriter, pad, absorbed);
    for (tensor::InsertSliceOp insert : inserts)
      generate(rewriter, insert, absorbed);
    numGenerated += pads.size();
    numInserts += inserts.size();
    for (linalg::GenericOp producer : absorbed)
      rewriter.eraseOp(producer);
  }
};
} // namespace
