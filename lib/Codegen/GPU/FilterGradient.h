//===- FilterGradient.h - torch-mlir's filter gradients for cuDNN -*- C++
//-*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// torch-mlir writes the filter gradient of a 2-d convolution (no groups,
// NCHW) as a grouped convolution with one group per image of the batch:
// the image transposed to C x N x H x W and padded, the output gradient N x
// K x Ho x Wo as the filters (one channel per group), the forward stride as
// the dilation and the forward dilation as the stride; then the per-image
// gradients C x N x K x Oh x Ow cut to the window, transposed and summed
// over the images. mp-gpu-select-gemm gives such a chain to cuDNN's
// backward filter as one linalg.generic (LibraryCalls.h,
// getBackwardFilterMaps).
//
//===----------------------------------------------------------------------===//

#ifndef MP_LIB_CODEGEN_GPU_FILTERGRADIENT_H
#define MP_LIB_CODEGEN_GPU_FILTERGRADIENT_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

#include <optional>

namespace mlir {
namespace mp {

/// torch-mlir's filter gradient of a 2-d convolution, from its grouped
/// convolution to the sum over the images.
struct TorchFilterGradient {
  linalg::Conv2DNgchwGfchwOp conv;
  /// The sum over the images: its result is the filter gradient K x C x R
  /// x S, its init (zeros) the generic's.
  linalg::GenericOp sum;
  /// The image N x C x H x W, its zero padding along H and W (before and
  /// after), and the output gradient N x K x Ho x Wo.
  Value image, gradient;
  SmallVector<int64_t, 2> padLow, padHigh;
  /// The forward convolution's strides and dilations.
  SmallVector<int64_t, 2> strides, dilations;
  /// The ops between the grouped convolution and the sum, and those that
  /// feed it, in order of use (the rewrite erases what is left unused).
  SmallVector<Operation *> chain;
};

/// `op`, a grouped convolution, as torch-mlir's filter gradient whose
/// padded image has cuDNN's output size for the output gradient.
std::optional<TorchFilterGradient>
matchTorchFilterGradient(linalg::LinalgOp op);

/// Replaces `gradient`'s chain with the generic of getBackwardFilterMaps
/// on the padded image and the output gradient (f32 accumulation), and
/// returns it.
linalg::GenericOp rewriteAsBackwardFilter(RewriterBase &rewriter,
                                          const TorchFilterGradient &gradient);

} // namespace mp
} // namespace mlir

#endif // MP_LIB_CODEGEN_GPU_FILTERGRADIENT_H
