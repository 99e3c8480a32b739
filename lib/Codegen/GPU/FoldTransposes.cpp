//===- FoldTransposes.cpp - Contractions read transposed operands in place ===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// A contraction that reads a transpose (a linear layer's x W^T, a weight
// gradient's dY^T x) reads the transpose's input instead, through its
// indexing map composed with the transpose's: the GEMM then copies its
// operand tiles along the dimension the input is contiguous in (16-byte
// copies rather than one element per thread, each warp's in one row), and
// the transpose is not computed.
//
//===----------------------------------------------------------------------===//

#include "mp/Codegen/GPU/Passes.h"

#include "MmaContraction.h"
#include "mp/Utils/TensorMath.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/SetVector.h"

namespace mlir {
namespace mp {
#define GEN_PASS_DEF_GPUFOLDTRANSPOSESPASS
#include "mp/Codegen/GPU/Passes.h.inc"
} // namespace mp
} // namespace mlir

using namespace mlir;
using namespace mlir::mp;

/// The map from the indices of what `op` writes to those it reads, if `op`
/// is a transpose on tensors (a linalg.transpose, or a generic that
/// isTensorTranspose takes).
static std::optional<AffineMap> getTransposeMap(Operation *op) {
  auto linalgOp = dyn_cast_if_present<linalg::LinalgOp>(op);
  if (!linalgOp || !linalgOp.hasPureTensorSemantics() ||
      !(isa<linalg::TransposeOp>(op) || isTensorTranspose(op)))
    return std::nullopt;
  AffineMap output =
      linalgOp.getMatchingIndexingMap(linalgOp.getDpsInitOperand(0));
  AffineMap input =
      linalgOp.getMatchingIndexingMap(linalgOp.getDpsInputOperand(0));
  if (!output.isIdentity() || !input.isPermutation())
    return std::nullopt;
  return input;
}

/// Whether `op`'s indexing maps may be any that are consistent with its
/// operands' shapes and keep it the same contraction: a generic, a
/// `linalg.contract`, or a `linalg.matmul` or `batch_matmul`, whose maps
/// may transpose their operands.
static bool hasFreeIndexingMaps(Operation *op) {
  return isa<linalg::GenericOp, linalg::ContractOp, linalg::MatmulOp,
             linalg::BatchMatmulOp>(op);
}

/// Makes the Tensor Core contraction `op` read each input that a transpose
/// (or a chain of them) writes from the transpose's input, if it is still a
/// contraction that the generated kernels or cuBLASLt take (the batch
/// outermost). Returns how many transposes it folded. An f32 GEMM on CUDA cores
/// keeps its transposes: its threads read 4 columns of B's panel at one K,
/// conflict-free in a K x N panel and all in one bank in an N x K one.
static int64_t foldTransposedInputs(RewriterBase &rewriter,
                                    linalg::LinalgOp op) {
  if (!hasFreeIndexingMaps(op) || !op.hasPureTensorSemantics())
    return 0;
  std::optional<MmaContraction> contraction =
      matchTiledContraction(op, /*dynamicSizes=*/true);
  if (!contraction || contraction->simt)
    return 0;
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  SmallVector<Value> inputs(op.getDpsInputs());
  int64_t folded = 0;
  // Through a chain of transposes, to the first one's input.
  for (OpOperand *input : op.getDpsInputOperands()) {
    unsigned index = input->getOperandNumber();
    while (std::optional<AffineMap> transpose =
               getTransposeMap(inputs[index].getDefiningOp())) {
      maps[index] = transpose->compose(maps[index]);
      inputs[index] = cast<linalg::LinalgOp>(inputs[index].getDefiningOp())
                          .getDpsInputs()[0];
      ++folded;
    }
  }
  if (!folded)
    return 0;
  SmallVector<AffineMap> oldMaps = op.getIndexingMapsArray();
  SmallVector<Value> oldInputs(op.getDpsInputs());
  auto setOperands = [&](ArrayRef<AffineMap> newMaps, ValueRange newInputs) {
    op->setAttr("indexing_maps", rewriter.getAffineMapArrayAttr(newMaps));
    for (auto [operand, value] : llvm::zip(op.getDpsInputOperands(), newInputs))
      operand->set(value);
  };
  rewriter.startOpModification(op);
  setOperands(maps, inputs);
  if (!matchTiledContraction(op, /*dynamicSizes=*/true)) {
    setOperands(oldMaps, oldInputs);
    rewriter.cancelOpModification(op);
    return 0;
  }
  rewriter.finalizeOpModification(op);
  // The transposes that nothing reads any more, each chain from its last.
  llvm::SmallSetVector<Operation *, 2> unread;
  for (Value old : oldInputs)
    if (Operation *producer = old.getDefiningOp())
      unread.insert(producer);
  for (unsigned i = 0; i < unread.size(); ++i) {
    Operation *producer = unread[i];
    if (!producer->use_empty() || !getTransposeMap(producer))
      continue;
    Value input = cast<linalg::LinalgOp>(producer).getDpsInputs()[0];
    rewriter.eraseOp(producer);
    if (Operation *next = input.getDefiningOp())
      unread.insert(next);
  }
  return folded;
}

namespace {
struct GPUFoldTransposesPass
    : public mp::impl::GPUFoldTransposesPassBase<GPUFoldTransposesPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> contractions;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (linalg::isaContractionOpInterface(op))
        contractions.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : contractions)
      numFolded += foldTransposedInputs(rewriter, op);
  }
};
} // namespace
