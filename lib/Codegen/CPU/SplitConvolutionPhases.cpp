//===- SplitConvolutionPhases.cpp - mp-split-convolution-phases -*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// The gradient of a strided convolution with respect to its image is a
// convolution over the output gradient spread out with zeros between its
// elements. Along a dimension spread S apart, the output elements of one
// phase (o = S u + r) meet the nonzero elements only through every S-th
// filter tap: one convolution per phase over the unspread elements and its
// taps computes the same sums without the S^2 - 1 products by zero of each
// 2-d tap, the way cuDNN and PyTorch compute a strided convolution's
// gradient (the first never multiplies the zeros, the second scatters).
//
//===----------------------------------------------------------------------===//

#include "mp/Codegen/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"

namespace mlir {
namespace mp {
#define GEN_PASS_DEF_SPLITCONVOLUTIONPHASESPASS
#include "mp/Codegen/CPU/Passes.h.inc"
} // namespace mp
} // namespace mlir

using namespace mlir;
using namespace mlir::mp;

namespace {
/// A dimension of the image along which its elements are spread out: the
/// convolution reads image[o + f] (o an output loop, f a filter tap), whose
/// element is the source's element (i - offset) / stride where that divides.
struct SpreadDim {
  unsigned imageDim;
  unsigned outputDim, filterDim;
  int64_t stride, offset, sourceSize;
  int64_t outputs, taps;
};

/// The loops of one phase along a spread dimension.
struct Phase {
  /// The first output of the phase and of its taps, and their counts.
  int64_t firstOutput, firstTap, outputs, taps;
  /// The source's zero padding before and after, and the first element of
  /// the padded source the phase reads.
  int64_t padLow, padHigh, start;
};
} // namespace

static bool isZeros(Value value) {
  if (auto fill = value.getDefiningOp<linalg::FillOp>())
    value = fill.getInputs()[0];
  return matchPattern(value, m_AnyZeroFloat()) || matchPattern(value, m_Zero());
}

/// The loops `a` and `b` if `expr` is `a + b`.
static std::optional<std::pair<unsigned, unsigned>> matchSum(AffineExpr expr) {
  auto sum = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!sum || sum.getKind() != AffineExprKind::Add)
    return std::nullopt;
  auto lhs = dyn_cast<AffineDimExpr>(sum.getLHS());
  auto rhs = dyn_cast<AffineDimExpr>(sum.getRHS());
  if (!lhs || !rhs)
    return std::nullopt;
  return std::make_pair(lhs.getPosition(), rhs.getPosition());
}

/// The spread dimensions of `op`'s image, the strided insertion `insert`
/// into zeros, if every other dimension is inserted whole and each spread
/// one is read at the sum of an output loop and a filter tap that no other
/// image dimension uses. The filter and the output must have static shapes
/// too (the phases slice them).
static std::optional<SmallVector<SpreadDim>>
matchSpreadImage(linalg::LinalgOp op, tensor::InsertSliceOp insert) {
  auto isStatic = [](Value v) {
    return cast<ShapedType>(v.getType()).hasStaticShape();
  };
  if (!isZeros(insert.getDest()) || !insert.getSourceType().hasStaticShape() ||
      !insert.getResultType().hasStaticShape() ||
      !isStatic(op.getDpsInputs()[1]) || !isStatic(op.getDpsInits()[0]) ||
      ShapedType::isDynamicShape(insert.getStaticOffsets()) ||
      ShapedType::isDynamicShape(insert.getStaticStrides()) ||
      insert.getSourceType().getRank() != insert.getResultType().getRank())
    return std::nullopt;
  AffineMap imageMap = op.getMatchingIndexingMap(op.getDpsInputOperand(0));
  AffineMap filterMap = op.getMatchingIndexingMap(op.getDpsInputOperand(1));
  AffineMap outputMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<SpreadDim> spread;
  for (auto [d, offset, stride] :
       llvm::enumerate(insert.getStaticOffsets(), insert.getStaticStrides())) {
    int64_t sourceSize = insert.getSourceType().getDimSize(d);
    if (stride == 1) {
      if (offset != 0 || sourceSize != insert.getResultType().getDimSize(d))
        return std::nullopt;
      continue;
    }
    // Zero and negative strides verify; they spread nothing.
    std::optional<std::pair<unsigned, unsigned>> loops =
        matchSum(imageMap.getResult(d));
    if (stride < 1 || !loops)
      return std::nullopt;
    auto [output, tap] = *loops;
    if (iterators[output] != utils::IteratorType::parallel)
      std::swap(output, tap);
    std::optional<unsigned> outputDim =
        outputMap.getResultPosition(getAffineDimExpr(output, op.getContext()));
    std::optional<unsigned> filterDim =
        filterMap.getResultPosition(getAffineDimExpr(tap, op.getContext()));
    if (iterators[output] != utils::IteratorType::parallel ||
        iterators[tap] != utils::IteratorType::reduction || !outputDim ||
        !filterDim || ShapedType::isDynamic(ranges[output]) ||
        ShapedType::isDynamic(ranges[tap]))
      return std::nullopt;
    for (auto [e, result] : llvm::enumerate(imageMap.getResults()))
      if (e != d &&
          (result.isFunctionOfDim(output) || result.isFunctionOfDim(tap)))
        return std::nullopt;
    spread.push_back({static_cast<unsigned>(d), *outputDim, *filterDim, stride,
                      offset, sourceSize, ranges[output], ranges[tap]});
  }
  if (spread.empty())
    return std::nullopt;
  return spread;
}

/// The phase of `dim` whose outputs are `first` + stride u: its taps are
/// those that land on the source's elements.
static Phase getPhase(const SpreadDim &dim, int64_t first) {
  int64_t s = dim.stride;
  Phase phase;
  phase.firstOutput = first;
  // (first + tap - offset) % s == 0.
  phase.firstTap = ((dim.offset - first) % s + s) % s;
  phase.outputs =
      first < dim.outputs ? llvm::divideCeil(dim.outputs - first, s) : 0;
  phase.taps = phase.firstTap < dim.taps
                   ? llvm::divideCeil(dim.taps - phase.firstTap, s)
                   : 0;
  // Output u, tap t read the source's element u + t + c.
  int64_t c = (first + phase.firstTap - dim.offset) / s;
  int64_t last = c + phase.outputs + phase.taps - 2;
  phase.padLow = std::max<int64_t>(0, -c);
  phase.padHigh = std::max<int64_t>(0, last - (dim.sourceSize - 1));
  phase.start = c + phase.padLow;
  return phase;
}

namespace {
/// A slice of a tensor of static `shape`: `dims` (offset, size, stride
/// each) and the whole of every other dimension.
struct Slice {
  using Dim = std::tuple<unsigned, int64_t, int64_t, int64_t>;

  Slice(OpBuilder &b, ArrayRef<int64_t> shape, ArrayRef<Dim> dims)
      : offsets(shape.size(), b.getIndexAttr(0)),
        sizes(getAsIndexOpFoldResult(b.getContext(), shape)),
        strides(shape.size(), b.getIndexAttr(1)) {
    for (auto [d, offset, size, stride] : dims) {
      whole &= offset == 0 && size == shape[d] && stride == 1;
      offsets[d] = b.getIndexAttr(offset);
      sizes[d] = b.getIndexAttr(size);
      strides[d] = b.getIndexAttr(stride);
    }
  }

  SmallVector<OpFoldResult> offsets, sizes, strides;
  bool whole = true;
};
} // namespace

/// `value` sliced along `dims`, whole along the others.
static Value slice(OpBuilder &b, Location loc, Value value,
                   ArrayRef<Slice::Dim> dims) {
  Slice s(b, cast<RankedTensorType>(value.getType()).getShape(), dims);
  if (s.whole)
    return value;
  return tensor::ExtractSliceOp::create(b, loc, value, s.offsets, s.sizes,
                                        s.strides);
}

/// Replaces `op` by one convolution per phase, each inserted into the
/// output at its phase's elements.
static void splitPhases(RewriterBase &rewriter, linalg::LinalgOp op,
                        tensor::InsertSliceOp insert,
                        ArrayRef<SpreadDim> spread) {
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  Value source = insert.getSource();
  auto sourceType = cast<RankedTensorType>(source.getType());
  Value filter = op.getDpsInputs()[1];
  Value init = op.getDpsInits()[0];
  Value result = init;
  Value zero;
  // Every combination of one phase per spread dimension.
  SmallVector<int64_t> first(spread.size(), 0);
  while (true) {
    SmallVector<Phase> phases;
    for (auto [dim, r] : llvm::zip_equal(spread, first))
      phases.push_back(getPhase(dim, r));
    // A phase without outputs or taps leaves its outputs as they are.
    if (llvm::all_of(phases, [](const Phase &p) {
          return p.outputs > 0 && p.taps > 0;
        })) {
      SmallVector<int64_t> low(sourceType.getRank(), 0), high = low;
      SmallVector<Slice::Dim> imageDims, filterDims, outputDims;
      for (auto [dim, p] : llvm::zip_equal(spread, phases)) {
        low[dim.imageDim] = p.padLow;
        high[dim.imageDim] = p.padHigh;
        imageDims.emplace_back(dim.imageDim, p.start, p.outputs + p.taps - 1,
                               1);
        filterDims.emplace_back(dim.filterDim, p.firstTap, p.taps, dim.stride);
        outputDims.emplace_back(dim.outputDim, p.firstOutput, p.outputs,
                                dim.stride);
      }
      Value image = source;
      if (llvm::any_of(low, [](int64_t v) { return v; }) ||
          llvm::any_of(high, [](int64_t v) { return v; })) {
        if (!zero)
          zero = arith::ConstantOp::create(
              rewriter, loc, rewriter.getZeroAttr(sourceType.getElementType()));
        image = tensor::PadOp::create(
            rewriter, loc,
            tensor::PadOp::inferResultType(sourceType, low, high), source,
            getAsIndexOpFoldResult(rewriter.getContext(), low),
            getAsIndexOpFoldResult(rewriter.getContext(), high), zero);
      }
      image = slice(rewriter, loc, image, imageDims);
      Value taps = slice(rewriter, loc, filter, filterDims);
      // The phase's outputs read from the tensor the phases are inserted
      // into (holding the accumulator's values there): bufferization then
      // writes every phase in place.
      Value acc = slice(rewriter, loc, result, outputDims);
      Operation *conv =
          clone(rewriter, op, acc.getType(), ValueRange{image, taps, acc});
      Slice outputs(rewriter, cast<RankedTensorType>(init.getType()).getShape(),
                    outputDims);
      result = tensor::InsertSliceOp::create(rewriter, loc, conv->getResult(0),
                                             result, outputs.offsets,
                                             outputs.sizes, outputs.strides);
    }
    // The next combination (the last dimension fastest).
    int64_t d = spread.size() - 1;
    while (d >= 0 && ++first[d] == spread[d].stride)
      first[d--] = 0;
    if (d < 0)
      break;
  }
  rewriter.replaceOp(op, result);
  if (insert->use_empty()) {
    Operation *dest = insert.getDest().getDefiningOp();
    rewriter.eraseOp(insert);
    if (dest && dest->use_empty() && isa<linalg::FillOp>(dest))
      rewriter.eraseOp(dest);
  }
}

namespace {
struct SplitConvolutionPhasesPass
    : public mp::impl::SplitConvolutionPhasesPassBase<
          SplitConvolutionPhasesPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> convs;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (op.hasPureTensorSemantics() && op.getNumDpsInputs() == 2 &&
          op.getNumDpsInits() == 1 && linalg::isaConvolutionOpInterface(op))
        convs.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : convs) {
      auto insert = op.getDpsInputs()[0].getDefiningOp<tensor::InsertSliceOp>();
      if (!insert)
        continue;
      std::optional<SmallVector<SpreadDim>> spread =
          matchSpreadImage(op, insert);
      if (!spread)
        continue;
      splitPhases(rewriter, op, insert, *spread);
      ++numSplit;
    }
  }
};
} // namespace
