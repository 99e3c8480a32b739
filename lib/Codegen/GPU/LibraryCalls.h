//===- LibraryCalls.h - Ops the runtime computes with CUDA libraries ------===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// What mp-gpu-select-gemm, mp-gpu-library-gemm and mp-gpu-library-conv share:
// the convolutions cuDNN computes, the runtime functions' declarations, and
// the arguments that describe a buffer to the runtime.
//
//===----------------------------------------------------------------------===//

#ifndef MP_LIB_CODEGEN_GPU_LIBRARYCALLS_H
#define MP_LIB_CODEGEN_GPU_LIBRARYCALLS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"

#include <optional>

namespace mlir {
namespace mp {

constexpr llvm::StringLiteral kLibraryConvFunction = "mp_cuda_conv";
/// The CPU implementation that mp-lower-to-gpu-emulation calls instead.
constexpr llvm::StringLiteral kEmulatedConvFunction = "mp_emulated_conv";

/// The spatial dimensions the runtime's convolution call always passes
/// (1-d convolutions have a leading spatial size of 1, 2-d ones a trailing
/// filter and image size of 1 in the third).
constexpr unsigned kConvSpatialDims = 3;

/// What the runtime's convolution call computes (its `kind` argument).
enum class ConvKind : int32_t {
  /// y = x cross-correlated with w: a linalg convolution.
  forward = 0,
  /// x = the input gradient of a convolution (the filter flipped) of x
  /// whose output gradient is y: cuDNN's backward-data convolution.
  backwardData = 1,
  /// w = the filter gradient of the cross-correlation of x with w whose
  /// output gradient is y: cuDNN's backward-filter convolution, of the
  /// linalg.generic getBackwardFilterMaps describes.
  backwardFilter = 2,
};

/// A convolution as cuDNN sees it: an image x of N x C x spatial (NCHW:
/// channels before the pixels; NHWC: after), a filter w of K x C/groups x
/// window in the same order, an output y of N x K x spatial, stride,
/// dilation and padding per spatial dimension (linalg's convolutions read a
/// padded image: their padding is 0).
struct CudnnConvolution {
  ConvKind kind = ConvKind::forward;
  bool channelsLast = false;
  /// 2 for 1-d and 2-d convolutions (cuDNN takes 4-d tensors at least), 3
  /// for 3-d ones.
  unsigned spatialDims = 2;
  int64_t groups = 1, n = 1, c = 1, k = 1;
  /// The IR's image: its first spatial dimension, and where its spatial
  /// dimensions start in the arrays below (1 for a 1-d convolution).
  unsigned imageSpatialDim = 2, firstSpatial = 0;
  /// Per spatial dimension, padded with 1 to kConvSpatialDims.
  SmallVector<int64_t, kConvSpatialDims> image, window, strides, dilations,
      padding;

  /// The output's size along spatial dimension `d` (of the arrays above).
  int64_t getOutputSize(unsigned d) const;
  /// Multiply-accumulates: N x K x output pixels x C/groups x window.
  int64_t getMacs() const;
};

/// The product of `factors`, or INT64_MAX where it overflows (static shapes
/// can be huge): how many multiply-accumulates a library call does.
int64_t getSaturatingProduct(ArrayRef<int64_t> factors);

/// The indexing maps of a 2-d filter gradient as a linalg.generic: loops
/// (k, c, r, s, n, ho, wo), the first four parallel; the image x[n, c, r *
/// dilation + ho * stride, s * dilation + wo * stride] (N x C x H x W,
/// padded), the output gradient dy[n, k, ho, wo] and the filter gradient
/// dw[k, c, r, s], with the forward convolution's `strides` and
/// `dilations`.
SmallVector<AffineMap, 3> getBackwardFilterMaps(MLIRContext *ctx,
                                                ArrayRef<int64_t> strides,
                                                ArrayRef<int64_t> dilations);

/// `op` as cuDNN computes it: one of linalg's NCHW/FCHW convolutions (1-d,
/// 2-d, 3-d), the grouped NGCHW/GFCHW one or NHWC/FHWC, or the filter
/// gradient of getBackwardFilterMaps whose output gradient has cuDNN's
/// output size (kind backwardFilter); static shapes, f16 or bf16 operands,
/// an f32 accumulator and a multiply-accumulate body.
std::optional<CudnnConvolution> matchCudnnConvolution(linalg::LinalgOp op);

/// Whether `op` is a convolution to the library passes: a linalg
/// convolution, or a filter gradient cuDNN computes.
bool isLibraryConvolution(linalg::LinalgOp op);

/// Replaces the ops of `module` marked `mp.gpu_gemm = "library"` that are
/// convolutions (or, without `convolutions`, the others) with `rewrite`,
/// which calls the runtime's function `name` of `type`: declared in
/// `module` (private, stream-ordered) if there is one such op; an error
/// naming `pass` if `module` has a function of that name of its own.
LogicalResult replaceLibraryOps(
    ModuleOp module, bool convolutions, StringRef name, FunctionType type,
    StringRef pass,
    function_ref<LogicalResult(IRRewriter &, linalg::LinalgOp, func::FuncOp)>
        rewrite);

/// The op that sets `op`'s accumulator to zeros just before it, which a
/// library call's beta = 0 makes unneeded: a fill of it, or a copy into it of
/// a buffer a fill set (findFoldedInit); null if there is none.
Operation *findZeroInit(linalg::LinalgOp op);

/// The address of `buffer`'s first element, as an i64.
Value getBufferAddress(RewriterBase &rewriter, Location loc, Value buffer);

} // namespace mp
} // namespace mlir

#endif // MP_LIB_CODEGEN_GPU_LIBRARYCALLS_H
