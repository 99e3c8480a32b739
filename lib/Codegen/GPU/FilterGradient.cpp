//===- FilterGradient.cpp - torch-mlir's filter gradients for cuDNN -------===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "FilterGradient.h"
#include "LibraryCalls.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::mp;

/// The only user of `value`, if it is an OpTy.
template <typename OpTy> static OpTy getOnlyUser(Value value) {
  return value.hasOneUse() ? dyn_cast<OpTy>(*value.user_begin()) : OpTy();
}

/// Whether `indices` are `expected`.
static bool isReassociation(ArrayRef<ReassociationIndices> indices,
                            ArrayRef<ArrayRef<int64_t>> expected) {
  return llvm::equal(indices, expected,
                     [](const ReassociationIndices &a, ArrayRef<int64_t> b) {
                       return ArrayRef<int64_t>(a) == b;
                     });
}

/// Whether `value` is the constant zero.
static bool isZero(Value value) {
  auto constant =
      value ? value.getDefiningOp<arith::ConstantFloatOp>() : nullptr;
  return constant && constant.value().isZero();
}

/// Whether `value` is a tensor of zeros made by a linalg.fill.
static bool isZeroFill(Value value) {
  auto fill = value.getDefiningOp<linalg::FillOp>();
  return fill && isZero(fill.getInputs()[0]);
}

/// Whether `sum` adds its input over its first loop into its init (zeros):
/// out[d1, d2, d3, d4] += in[d0, d1, d2, d3, d4].
static bool isSumOverFirstDim(linalg::GenericOp sum, Value input) {
  if (sum.getNumDpsInputs() != 1 || sum.getNumDpsInits() != 1 ||
      sum.getDpsInputs()[0] != input || sum.getNumLoops() != 5 ||
      sum.getNumReductionLoops() != 1 ||
      sum.getIteratorTypesArray()[0] != utils::IteratorType::reduction ||
      !isZeroFill(sum.getDpsInits()[0]))
    return false;
  MLIRContext *ctx = sum.getContext();
  AffineMap identity = AffineMap::getMultiDimIdentityMap(5, ctx);
  if (sum.getIndexingMapsArray() !=
      SmallVector<AffineMap>{identity, identity.dropResult(0)})
    return false;
  Block &body = *sum.getBlock();
  auto add = body.getTerminator()->getOperand(0).getDefiningOp<arith::AddFOp>();
  return add && body.getOperations().size() == 2 &&
         ((add.getLhs() == body.getArgument(0) &&
           add.getRhs() == body.getArgument(1)) ||
          (add.getLhs() == body.getArgument(1) &&
           add.getRhs() == body.getArgument(0)));
}

std::optional<TorchFilterGradient>
mlir::mp::matchTorchFilterGradient(linalg::LinalgOp op) {
  auto conv = dyn_cast<linalg::Conv2DNgchwGfchwOp>(op.getOperation());
  if (!conv || !op.hasPureTensorSemantics() || op.hasDynamicShape() ||
      !isZeroFill(conv.getOutputs()[0]))
    return std::nullopt;
  TorchFilterGradient g;
  g.conv = conv;
  // The image C x N x 1 x Hp x Wp and the filters N x K x 1 x Ho x Wo: one
  // group per image, one channel per group.
  auto image = conv.getInputs()[0].getDefiningOp<tensor::ExpandShapeOp>();
  auto filters = conv.getInputs()[1].getDefiningOp<tensor::ExpandShapeOp>();
  if (!image || !filters ||
      !isReassociation(image.getReassociationIndices(),
                       {{0}, {1, 2}, {3}, {4}}) ||
      !isReassociation(filters.getReassociationIndices(),
                       {{0}, {1}, {2, 3}, {4}}) ||
      image.getResultType().getShape()[2] != 1 ||
      filters.getResultType().getShape()[2] != 1)
    return std::nullopt;
  g.chain.append({image, filters});
  g.gradient = filters.getSrc();
  // The transposed image, zero-padded along H and W.
  Value transposed = image.getSrc();
  g.padLow = {0, 0};
  g.padHigh = {0, 0};
  if (auto pad = transposed.getDefiningOp<tensor::PadOp>()) {
    ArrayRef<int64_t> low = pad.getStaticLow(), high = pad.getStaticHigh();
    if (low.size() != 4 || low[0] || low[1] || high[0] || high[1] ||
        llvm::any_of(llvm::concat<const int64_t>(low, high),
                     ShapedType::isDynamic) ||
        !isZero(pad.getConstantPaddingValue()))
      return std::nullopt;
    g.padLow = {low[2], low[3]};
    g.padHigh = {high[2], high[3]};
    g.chain.push_back(pad);
    transposed = pad.getSource();
  }
  auto transpose = transposed.getDefiningOp<linalg::TransposeOp>();
  if (!transpose || transpose.getPermutation() != ArrayRef<int64_t>{1, 0, 2, 3})
    return std::nullopt;
  g.chain.push_back(transpose);
  g.image = transpose.getInput();
  // The per-image gradients cut to the window, transposed to N x K x C x R
  // x S and summed over the images.
  auto collapse = getOnlyUser<tensor::CollapseShapeOp>(conv->getResult(0));
  if (!collapse || !isReassociation(collapse.getReassociationIndices(),
                                    {{0}, {1, 2}, {3}, {4}}))
    return std::nullopt;
  Value cut = collapse.getResult();
  while (auto slice = getOnlyUser<tensor::ExtractSliceOp>(cut)) {
    if (!slice.hasUnitStride() || !slice.hasZeroOffset() ||
        slice.getSourceType().getRank() != 4 ||
        slice.getType().getRank() != 4 ||
        slice.getType().getShape().take_front(2) !=
            slice.getSourceType().getShape().take_front(2))
      return std::nullopt;
    cut = slice.getResult();
  }
  auto split = getOnlyUser<tensor::ExpandShapeOp>(cut);
  if (!split ||
      !isReassociation(split.getReassociationIndices(),
                       {{0}, {1, 2}, {3}, {4}}) ||
      split.getResultType().getShape()[1] !=
          cast<ShapedType>(conv.getOutputs()[0].getType()).getShape()[1])
    return std::nullopt;
  auto order = getOnlyUser<linalg::TransposeOp>(split.getResult());
  if (!order || order.getInput() != split.getResult() ||
      order.getPermutation() != ArrayRef<int64_t>{1, 2, 0, 3, 4})
    return std::nullopt;
  g.sum = getOnlyUser<linalg::GenericOp>(order->getResult(0));
  if (!g.sum || !isSumOverFirstDim(g.sum, order->getResult(0)))
    return std::nullopt;
  // Types and sizes: f16 or bf16 operands, f32 sums; the padded image
  // gives cuDNN's output size for the output gradient.
  Type element = getElementTypeOrSelf(g.image);
  if (element != getElementTypeOrSelf(g.gradient) ||
      !(element.isF16() || element.isBF16()) ||
      !getElementTypeOrSelf(conv.getOutputs()[0]).isF32() ||
      !getElementTypeOrSelf(g.sum.getDpsInits()[0]).isF32())
    return std::nullopt;
  // The grouped convolution's dilation is the forward one's stride, and
  // its stride the forward dilation.
  g.strides =
      llvm::to_vector_of<int64_t>(conv.getDilations().getValues<int64_t>());
  g.dilations =
      llvm::to_vector_of<int64_t>(conv.getStrides().getValues<int64_t>());
  if (llvm::any_of(llvm::concat<const int64_t>(g.strides, g.dilations),
                   [](int64_t v) { return v < 1; }))
    return std::nullopt;
  auto imageType = cast<ShapedType>(g.image.getType());
  auto gradientType = cast<ShapedType>(g.gradient.getType());
  auto resultType = cast<ShapedType>(g.sum.getResult(0).getType());
  if (!imageType.hasStaticShape() || !gradientType.hasStaticShape() ||
      !resultType.hasStaticShape())
    return std::nullopt;
  ArrayRef<int64_t> x = imageType.getShape(), dy = gradientType.getShape(),
                    dw = resultType.getShape();
  if (x.size() != 4 || dy.size() != 4 || dw.size() != 4 || x[0] != dy[0] ||
      dw[0] != dy[1] || dw[1] != x[1])
    return std::nullopt;
  for (unsigned d = 0; d < 2; ++d) {
    int64_t padded = x[2 + d] + g.padLow[d] + g.padHigh[d];
    int64_t span = padded - g.dilations[d] * (dw[2 + d] - 1) - 1;
    if (span < 0 || span / g.strides[d] + 1 != dy[2 + d])
      return std::nullopt;
  }
  g.chain.insert(g.chain.begin(), {order, split});
  return g;
}

linalg::GenericOp
mlir::mp::rewriteAsBackwardFilter(RewriterBase &rewriter,
                                  const TorchFilterGradient &g) {
  MLIRContext *ctx = rewriter.getContext();
  linalg::Conv2DNgchwGfchwOp conv = g.conv;
  linalg::GenericOp sum = g.sum;
  Location loc = rewriter.getFusedLoc({conv.getLoc(), sum.getLoc()});
  rewriter.setInsertionPoint(sum);
  Value image = g.image;
  auto imageType = cast<RankedTensorType>(image.getType());
  Type element = imageType.getElementType();
  if (llvm::any_of(llvm::concat<const int64_t>(g.padLow, g.padHigh),
                   [](int64_t pad) { return pad != 0; })) {
    SmallVector<int64_t> shape(imageType.getShape());
    SmallVector<OpFoldResult> low(2, rewriter.getIndexAttr(0)),
        high(2, rewriter.getIndexAttr(0));
    for (unsigned d = 0; d < 2; ++d) {
      shape[2 + d] += g.padLow[d] + g.padHigh[d];
      low.push_back(rewriter.getIndexAttr(g.padLow[d]));
      high.push_back(rewriter.getIndexAttr(g.padHigh[d]));
    }
    Value zero = arith::ConstantOp::create(rewriter, loc, element,
                                           rewriter.getZeroAttr(element));
    image = tensor::PadOp::create(rewriter, loc,
                                  RankedTensorType::get(shape, element), image,
                                  low, high, zero);
  }
  Value init = sum.getDpsInits()[0];
  SmallVector<utils::IteratorType> iterators(4, utils::IteratorType::parallel);
  iterators.append(3, utils::IteratorType::reduction);
  auto generic = linalg::GenericOp::create(
      rewriter, loc, init.getType(), ValueRange{image, g.gradient},
      ValueRange{init}, getBackwardFilterMaps(ctx, g.strides, g.dilations),
      iterators, [&](OpBuilder &b, Location nested, ValueRange args) {
        Type acc = args[2].getType();
        Value product = arith::MulFOp::create(
            b, nested, arith::ExtFOp::create(b, nested, acc, args[0]),
            arith::ExtFOp::create(b, nested, acc, args[1]));
        Value total = arith::AddFOp::create(b, nested, args[2], product);
        linalg::YieldOp::create(b, nested, total);
      });
  rewriter.replaceOp(sum, generic.getResults());
  // What only fed the sum goes: the chain and what it alone used, each op
  // once its users are gone.
  llvm::SetVector<Operation *> candidates(g.chain.begin(), g.chain.end());
  DenseSet<Operation *> erased;
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t i = 0; i < candidates.size(); ++i) {
      Operation *op = candidates[i];
      if (erased.contains(op) || !isOpTriviallyDead(op))
        continue;
      for (Value operand : op->getOperands())
        if (Operation *producer = operand.getDefiningOp())
          candidates.insert(producer);
      erased.insert(op);
      rewriter.eraseOp(op);
      changed = true;
    }
  }
  return generic;
}
