//===- PadContractions.cpp - Pad Tensor Core contractions to the tiles ----===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// The tiled stage needs M, N and K that its tiles divide. Contractions of
// other sizes (1x1, 37x61x29, the 10 classes of a classifier) are padded with
// zeros up to the next multiple on tensors, computed at the padded size and
// sliced back: zero rows and columns of A and B add nothing to C.
//
//===----------------------------------------------------------------------===//

#include "mp/Codegen/GPU/Passes.h"

#include "MmaContraction.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/TypeUtilities.h"

namespace mlir {
namespace mp {
#define GEN_PASS_DEF_GPUPADCONTRACTIONSPASS
#include "mp/Codegen/GPU/Passes.h.inc"
} // namespace mp
} // namespace mlir

using namespace mlir;
using namespace mlir::mp;

namespace {
struct GPUPadContractionsPass
    : public mp::impl::GPUPadContractionsPassBase<GPUPadContractionsPass> {
  using Base::Base;

  void runOnOperation() override {
    if (tileM <= 0 || tileN <= 0) {
      emitError(getOperation()->getLoc())
          << "mp-gpu-pad-contractions: tile-m=" << static_cast<int64_t>(tileM)
          << " tile-n=" << static_cast<int64_t>(tileN)
          << " is invalid: both must be positive";
      return signalPassFailure();
    }
    SmallVector<std::pair<linalg::LinalgOp, MmaContraction>> targets;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (!op.hasPureTensorSemantics())
        return;
      std::optional<MmaContraction> c = matchMmaContraction(op);
      if (c && (c->ranges[c->m] % tileM || c->ranges[c->n] % tileN ||
                c->ranges[c->k] % kMmaK))
        targets.emplace_back(op, *c);
    });
    IRRewriter rewriter(&getContext());
    for (auto &[op, c] : targets) {
      SmallVector<int64_t> multiples(c.ranges.size(), 1);
      multiples[c.m] = tileM;
      multiples[c.n] = tileN;
      multiples[c.k] = kMmaK;
      SmallVector<Attribute> zeros = llvm::map_to_vector(
          op->getOperands(), [&](Value operand) -> Attribute {
            return rewriter.getZeroAttr(getElementTypeOrSelf(operand));
          });
      linalg::LinalgPaddingOptions options;
      options.setPaddingDimensions(llvm::to_vector(
                                       llvm::seq<int64_t>(0, c.ranges.size())))
          .setPadToMultipleOf(multiples)
          .setPaddingValues(zeros);
      options.copyBackOp = linalg::LinalgPaddingOptions::CopyBackOp::None;
      linalg::LinalgOp padded;
      SmallVector<Value> replacements;
      SmallVector<tensor::PadOp> pads;
      rewriter.setInsertionPoint(op);
      if (failed(linalg::rewriteAsPaddedOp(rewriter, op, options, padded,
                                           replacements, pads))) {
        op->emitError("mp-gpu-pad-contractions: cannot pad this contraction "
                      "to the Tensor Core tiles");
        return signalPassFailure();
      }
      rewriter.replaceOp(op, replacements);
      ++numPadded;
    }
  }
};
} // namespace
