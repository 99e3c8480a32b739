//===- LibraryConv.cpp - Convolutions as cuDNN calls ----------------------===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// Each convolution on buffers that mp-gpu-select-gemm gave to the library
// becomes a call of the runtime's `mp_cuda_conv`, which runs cuDNN's forward
// convolution with f32 compute into a buffer of the operands' type (the
// only output type cuDNN's f16 and bf16 configurations have), and a
// generated elementwise kernel that adds that result to the f32
// accumulator.
//
//===----------------------------------------------------------------------===//

#include "mp/Codegen/GPU/Passes.h"

#include "LibraryCalls.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"

namespace mlir {
namespace mp {
#define GEN_PASS_DEF_GPULIBRARYCONVPASS
#include "mp/Codegen/GPU/Passes.h.inc"
} // namespace mp
} // namespace mlir

using namespace mlir;
using namespace mlir::mp;

/// The type of `mp_cuda_conv`: element type, kind and channels-last (i32),
/// then the spatial dimensions, groups, N, C, K, the image, window,
/// strides, dilations and padding per spatial dimension, and the addresses
/// of x, w and y (i64).
static FunctionType getConvType(MLIRContext *ctx) {
  SmallVector<Type> inputs(3, IntegerType::get(ctx, 32));
  inputs.append(5 + 5 * kConvSpatialDims + 3, IntegerType::get(ctx, 64));
  return FunctionType::get(ctx, inputs, {});
}

namespace {
/// An image made of zeros and a tensor written into a subview of them, read
/// by the convolution alone: a padded tensor (a unit-stride subview), or
/// torch-mlir's input gradient of a strided convolution, the output
/// gradient spread out (a strided subview). The writer is a copy, or an
/// elementwise op (a cast fused into the copy) that does not read what it
/// overwrites.
struct SpreadImage {
  memref::AllocOp alloc;
  linalg::LinalgOp fill;
  memref::SubViewOp spread;
  Operation *writer = nullptr;
  /// Linalg ops after the writer that read the subview too (a filter
  /// gradient reading the output gradient that an elementwise op wrote
  /// into it).
  SmallVector<OpOperand *> readers;
  SmallVector<memref::DeallocOp> deallocs;
  /// The buffer's shape, and the subview's static offsets, sizes and
  /// strides (as many as the buffer has dimensions).
  ArrayRef<int64_t> shape, offsets, sizes, strides;
};

/// Whether `op` writes zeros into all of `buffer`: a fill, or a bufferized
/// tensor.pad's map that yields its constant.
static bool isZeroFill(linalg::LinalgOp op, Value buffer) {
  if (op.getNumDpsInits() != 1 || op.getDpsInits()[0] != buffer ||
      op.getNumLoops() != op.getNumParallelLoops())
    return false;
  Value value;
  if (auto fill = dyn_cast<linalg::FillOp>(op.getOperation()))
    value = fill.getInputs()[0];
  else if (op.getNumDpsInputs() == 0 && op.getBlock())
    value = op.getBlock()->getTerminator()->getOperand(0);
  auto zero = value ? value.getDefiningOp<arith::ConstantFloatOp>() : nullptr;
  return zero && zero.value().isZero();
}

/// Whether `op` writes every element of `view` (its only output, at the
/// same indices as its loops) from its inputs alone.
static bool writesElementwise(Operation *op, Value view) {
  if (auto copy = dyn_cast<memref::CopyOp>(op))
    return copy.getTarget() == view;
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp || linalgOp.getNumDpsInits() != 1 ||
      linalgOp.getNumLoops() != linalgOp.getNumParallelLoops())
    return false;
  OpOperand *init = linalgOp.getDpsInitOperand(0);
  return init->get() == view &&
         linalgOp.getMatchingIndexingMap(init).isIdentity() &&
         !linalgOp.payloadUsesValueFromOperand(init) &&
         !llvm::is_contained(linalgOp.getDpsInputs(), view);
}
} // namespace

/// The spread image `op` reads, if it reads one.
static std::optional<SpreadImage> matchSpreadImage(linalg::LinalgOp op) {
  Value image = op.getDpsInputs()[0];
  SpreadImage s;
  s.alloc = image.getDefiningOp<memref::AllocOp>();
  if (!s.alloc || op.getDpsInputs()[1] == image)
    return std::nullopt;
  Block *block = op->getBlock();
  for (Operation *user : image.getUsers()) {
    if (user == op)
      continue;
    if (user->getBlock() != block)
      return std::nullopt;
    if (auto fill = dyn_cast<linalg::LinalgOp>(user);
        fill && !s.fill && isZeroFill(fill, image))
      s.fill = fill;
    else if (auto spread = dyn_cast<memref::SubViewOp>(user);
             spread && !s.spread)
      s.spread = spread;
    else if (auto dealloc = dyn_cast<memref::DeallocOp>(user);
             dealloc && op->isBeforeInBlock(dealloc))
      s.deallocs.push_back(dealloc);
    else
      return std::nullopt;
  }
  if (!s.fill || !s.spread)
    return std::nullopt;
  for (OpOperand &use : s.spread->getUses()) {
    if (!s.writer && writesElementwise(use.getOwner(), s.spread)) {
      s.writer = use.getOwner();
      continue;
    }
    auto reader = dyn_cast<linalg::LinalgOp>(use.getOwner());
    if (!reader || !reader.isDpsInput(&use) || reader->getBlock() != block)
      return std::nullopt;
    s.readers.push_back(&use);
  }
  if (!s.writer || llvm::any_of(s.readers, [&](OpOperand *use) {
        return !s.writer->isBeforeInBlock(use->getOwner());
      }))
    return std::nullopt;
  s.shape = s.alloc.getType().getShape();
  s.offsets = s.spread.getStaticOffsets();
  s.sizes = s.spread.getStaticSizes();
  s.strides = s.spread.getStaticStrides();
  if (s.spread.getType().getRank() != int64_t(s.shape.size()) ||
      llvm::any_of(llvm::concat<const int64_t>(s.offsets, s.sizes, s.strides),
                   ShapedType::isDynamic) ||
      s.writer->getBlock() != block || !s.fill->isBeforeInBlock(s.writer) ||
      !s.writer->isBeforeInBlock(op))
    return std::nullopt;
  return s;
}

/// `op` (a stride-1, dilation-1 convolution without groups, channels first)
/// as the backward-data convolution cuDNN computes without the zeros:
/// out[h] = sum_j spread[h + j] w[j] with spread[p0 + S i] = source[i] is
/// dx[h] = sum over S i + r - p = h of source[i] w[R - 1 - r] with p = R - 1
/// - p0, the input gradient of a convolution (flipped filter) of stride S
/// and padding p whose output gradient is `source`, if cuDNN's output size
/// for that convolution, (|dx| + 2p - R) / S + 1, is the source's size.
/// The filter is K x C x window, K the source's channels: `op`'s transposed.
static std::optional<CudnnConvolution>
matchBackwardData(linalg::LinalgOp op, const CudnnConvolution &conv,
                  SpreadImage s) {
  if (!isa<linalg::Conv1DNcwFcwOp, linalg::Conv2DNchwFchwOp,
           linalg::Conv3DNcdhwFcdhwOp>(op) ||
      llvm::any_of(conv.strides, [](int64_t v) { return v != 1; }) ||
      llvm::any_of(conv.dilations, [](int64_t v) { return v != 1; }))
    return std::nullopt;
  ArrayRef<int64_t> offsets = s.offsets, sizes = s.sizes, strides = s.strides,
                    shape = s.shape;
  for (unsigned d = 0; d < 2; ++d)
    if (offsets[d] != 0 || strides[d] != 1 || sizes[d] != shape[d])
      return std::nullopt;
  ArrayRef<int64_t> output =
      cast<MemRefType>(op.getDpsInits()[0].getType()).getShape();
  CudnnConvolution data = conv;
  data.kind = ConvKind::backwardData;
  data.c = output[1];
  data.k = shape[1];
  for (unsigned d = 2; d < shape.size(); ++d) {
    unsigned at = conv.firstSpatial + d - 2;
    int64_t window = conv.window[at], pad = window - 1 - offsets[d];
    int64_t span = output[d] + 2 * pad - window;
    if (strides[d] < 1 || pad < 0 || span < 0 ||
        span / strides[d] + 1 != sizes[d])
      return std::nullopt;
    data.image[at] = output[d];
    data.strides[at] = strides[d];
    data.padding[at] = pad;
  }
  return data;
}

/// A forward `op` of a padded image (a unit-stride subview at offset p0 of
/// zeros) as cuDNN's forward convolution of the unpadded tensor with
/// padding p0, when cuDNN's output size with that padding, (|x| + 2 p0 -
/// dilation (R - 1) - 1) / S + 1, is `op`'s (the padding after the tensor
/// may be anything that gives the same size).
static std::optional<CudnnConvolution>
matchPaddedImage(const CudnnConvolution &conv, SpreadImage s) {
  ArrayRef<int64_t> offsets = s.offsets, sizes = s.sizes, shape = s.shape;
  if (llvm::any_of(s.strides, [](int64_t v) { return v != 1; }))
    return std::nullopt;
  unsigned spatial = conv.spatialDims - conv.firstSpatial;
  CudnnConvolution padded = conv;
  for (unsigned d = 0; d < shape.size(); ++d) {
    if (d < conv.imageSpatialDim || d >= conv.imageSpatialDim + spatial) {
      if (offsets[d] != 0 || sizes[d] != shape[d])
        return std::nullopt;
      continue;
    }
    unsigned at = conv.firstSpatial + d - conv.imageSpatialDim;
    padded.image[at] = sizes[d];
    padded.padding[at] = offsets[d];
    if (sizes[d] + 2 * offsets[d] <
            conv.dilations[at] * (conv.window[at] - 1) + 1 ||
        padded.getOutputSize(at) != conv.getOutputSize(at))
      return std::nullopt;
  }
  return padded;
}

/// Makes the other readers of `s`'s subview read `values` (a buffer with
/// the same elements) instead.
static void redirectReaders(RewriterBase &rewriter, const SpreadImage &s,
                            Value values) {
  for (OpOperand *use : s.readers)
    rewriter.modifyOpInPlace(use->getOwner(), [&] { use->set(values); });
}

namespace {
struct GPULibraryConvPass
    : public mp::impl::GPULibraryConvPassBase<GPULibraryConvPass> {
  using Base::Base;

  void runOnOperation() override {
    auto rewriteOp = [&](IRRewriter &rewriter, linalg::LinalgOp op,
                         func::FuncOp callee) {
      return rewrite(rewriter, op, callee);
    };
    if (failed(replaceLibraryOps(
            getOperation(), /*convolutions=*/true,
            emulate ? kEmulatedConvFunction : kLibraryConvFunction,
            getConvType(&getContext()), getArgument(), rewriteOp)))
      signalPassFailure();
  }

  LogicalResult rewrite(IRRewriter &rewriter, linalg::LinalgOp op,
                        func::FuncOp callee) {
    std::optional<CudnnConvolution> conv;
    if (op.hasPureBufferSemantics())
      conv = matchCudnnConvolution(op);
    if (!conv)
      return op->emitError()
             << "mp-gpu-library-conv: marked mp.gpu_gemm = \"library\" but "
                "not a convolution on buffers that cuDNN computes (NCHW, "
                "grouped NGCHW or NHWC, or a filter gradient of NCHW "
                "operands; static shapes, f16 or bf16 operands, an f32 "
                "accumulator)";
    Location loc = op.getLoc();
    rewriter.setInsertionPoint(op);
    SmallVector<Value> temporaries;
    auto allocate = [&](ArrayRef<int64_t> shape, Type element) {
      Value buffer = memref::AllocOp::create(rewriter, loc,
                                             MemRefType::get(shape, element));
      temporaries.push_back(buffer);
      return buffer;
    };
    // cuDNN reads packed tensors: others are copied first.
    auto packed = [&](Value buffer) {
      auto type = cast<MemRefType>(buffer.getType());
      if (memref::isStaticShapeAndContiguousRowMajor(type))
        return buffer;
      Value copy = allocate(type.getShape(), type.getElementType());
      memref::CopyOp::create(rewriter, loc, buffer, copy);
      return copy;
    };
    Value acc = op.getDpsInits()[0];
    auto accType = cast<MemRefType>(acc.getType());
    // The filter, or a backward filter's output gradient.
    Value filter = op.getDpsInputs()[1];
    Type element = getElementTypeOrSelf(filter);
    bool backwardFilter = conv->kind == ConvKind::backwardFilter;
    // The call's x, w and y, and the one it writes, in the operands' type.
    Value x, w, y, result = allocate(accType.getShape(), element);
    std::optional<SpreadImage> spread = matchSpreadImage(op);
    std::optional<CudnnConvolution> data, padded;
    if (spread) {
      data = matchBackwardData(op, *conv, *spread);
      if (!data)
        padded = matchPaddedImage(*conv, *spread);
    }
    // What was written into the subview of zeros: the copy's source, or
    // the writer's result written into a buffer of its own, which its
    // other readers read instead (and which is freed where the zeros were,
    // after them).
    Value moved;
    auto written = [&]() -> Value {
      Value same;
      if (auto copy = dyn_cast<memref::CopyOp>(spread->writer)) {
        same = copy.getSource();
        Value source = packed(same);
        rewriter.eraseOp(copy);
        redirectReaders(rewriter, *spread, same);
        return source;
      }
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPoint(spread->writer);
      auto spreadType = spread->spread.getType();
      auto bufferType =
          MemRefType::get(spreadType.getShape(), spreadType.getElementType());
      Value buffer;
      if (spread->readers.empty()) {
        buffer = allocate(bufferType.getShape(), bufferType.getElementType());
      } else {
        buffer = memref::AllocOp::create(rewriter, loc, bufferType);
        moved = buffer;
      }
      rewriter.modifyOpInPlace(spread->writer, [&] {
        cast<linalg::LinalgOp>(spread->writer)
            .getDpsInitOperand(0)
            ->set(buffer);
      });
      redirectReaders(rewriter, *spread, buffer);
      return buffer;
    };
    if (padded) {
      conv = padded;
      x = written();
    } else if (!data) {
      x = packed(op.getDpsInputs()[0]);
    }
    if (backwardFilter) {
      w = result;
      y = packed(filter);
    } else if (data) {
      conv = data;
      x = result;
      y = written();
      // The filter's channels swapped: K (the source's) first.
      auto filterType = cast<MemRefType>(filter.getType());
      SmallVector<int64_t> permutation =
          llvm::to_vector(llvm::seq<int64_t>(0, filterType.getRank()));
      std::swap(permutation[0], permutation[1]);
      w = allocate(applyPermutation(filterType.getShape(), permutation),
                   element);
      linalg::TransposeOp::create(rewriter, loc, filter, w, permutation);
    } else {
      w = packed(filter);
      y = result;
    }

    Type i64 = rewriter.getI64Type(), i32 = rewriter.getI32Type();
    SmallVector<Value> args;
    for (int64_t value : {int64_t(element.isBF16()), int64_t(conv->kind),
                          int64_t(conv->channelsLast)})
      args.push_back(arith::ConstantIntOp::create(rewriter, loc, i32, value));
    auto push = [&](int64_t value) {
      args.push_back(arith::ConstantIntOp::create(rewriter, loc, i64, value));
    };
    for (int64_t value :
         {int64_t(conv->spatialDims), conv->groups, conv->n, conv->c, conv->k})
      push(value);
    for (ArrayRef<int64_t> values :
         {ArrayRef<int64_t>(conv->image), ArrayRef<int64_t>(conv->window),
          ArrayRef<int64_t>(conv->strides), ArrayRef<int64_t>(conv->dilations),
          ArrayRef<int64_t>(conv->padding)})
      llvm::for_each(values, push);
    for (Value buffer : {x, w, y})
      args.push_back(getBufferAddress(rewriter, loc, buffer));
    func::CallOp::create(rewriter, loc, callee, args);

    // The accumulator plus the result, or the result alone where the
    // accumulator was filled with zeros for the convolution.
    Operation *zeroInit = findZeroInit(op);
    bool add = !zeroInit;
    if (zeroInit) {
      rewriter.eraseOp(zeroInit);
      ++numFillsDropped;
    }
    AffineMap identity = rewriter.getMultiDimIdentityMap(accType.getRank());
    linalg::GenericOp::create(
        rewriter, loc, ValueRange{result}, ValueRange{acc},
        ArrayRef<AffineMap>{identity, identity},
        SmallVector<utils::IteratorType>(accType.getRank(),
                                         utils::IteratorType::parallel),
        [&](OpBuilder &b, Location nested, ValueRange values) {
          Value sum = arith::ExtFOp::create(b, nested, accType.getElementType(),
                                            values[0]);
          if (add)
            sum = arith::AddFOp::create(b, nested, values[1], sum);
          linalg::YieldOp::create(b, nested, sum);
        });
    for (Value temporary : temporaries)
      memref::DeallocOp::create(rewriter, loc, temporary);
    rewriter.eraseOp(op);
    if (data || padded) {
      // The image of zeros is no longer read.
      rewriter.eraseOp(spread->spread);
      rewriter.eraseOp(spread->fill);
      for (memref::DeallocOp dealloc : spread->deallocs) {
        if (moved)
          rewriter.modifyOpInPlace(
              dealloc, [&] { dealloc.getMemrefMutable().assign(moved); });
        else
          rewriter.eraseOp(dealloc);
      }
      rewriter.eraseOp(spread->alloc);
      ++(data ? numBackwardData : numPaddingsFolded);
    }
    numBackwardFilter += backwardFilter;
    ++numCalls;
    return success();
  }
};
} // namespace
