//===- FuseElementwise.cpp - Fewer kernels by elementwise fusion ----------===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "mp/Codegen/CPU/Passes.h"
#include "mp/Dialect/MP/IR/MPDialect.h"
#include "mp/Utils/TensorMath.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace mp {
#define GEN_PASS_DEF_FUSEELEMENTWISEPASS
#include "mp/Codegen/CPU/Passes.h.inc"
} // namespace mp
} // namespace mlir

using namespace mlir;
using namespace mlir::mp;

/// The most operations of a producer that `recompute` copies into each of
/// its readers.
constexpr int64_t kMaxRecomputedOps = 8;

/// The users of `value` but those an earlier fusion left dead (the greedy
/// driver erases them later).
static SmallVector<Operation *> getLiveUsers(Value value) {
  return llvm::filter_to_vector(value.getUsers(), [](Operation *user) {
    return !isOpTriviallyDead(user);
  });
}

/// The longest chain of single-use elementwise ops between a contraction
/// and a reader that isComputedFromC follows.
constexpr int kMaxEpilogueChain = 4;

/// Whether `input` is read by nothing but `reader` and is the result of a
/// contraction, or of an elementwise generic that fusion will merge into
/// its reader (one use) computed from such a result, looking through
/// tensor reshapes that only the next op reads (attention scores split
/// into heads): a GEMM whose epilogue can compute the reader from C in
/// registers (reading C through a view of its buffer), so that neither C
/// nor the chain's values are stored and read back.
static bool isComputedFromC(Value input, Operation *reader, int depth = 0) {
  if (depth > kMaxEpilogueChain || getLiveUsers(input) != ArrayRef{reader})
    return false;
  if (auto *reshape = input.getDefiningOp();
      isa_and_present<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(reshape))
    return isComputedFromC(reshape->getOperand(0), reshape, depth + 1);
  auto producer = input.getDefiningOp<linalg::LinalgOp>();
  if (!producer)
    return false;
  if (linalg::isaContractionOpInterface(producer))
    return true;
  return isa<linalg::GenericOp>(producer.getOperation()) &&
         producer.getNumLoops() == producer.getNumParallelLoops() &&
         llvm::any_of(producer.getDpsInputs(), [&](Value value) {
           return isComputedFromC(value, producer, depth + 1);
         });
}

/// Whether `generic` (if any) is an elementwise generic on tensors of one
/// result whose body has at most kMaxRecomputedOps operations: one that may
/// be computed again where it is read.
static bool isShortElementwise(linalg::GenericOp generic) {
  return generic && generic->getNumResults() == 1 &&
         generic.hasPureTensorSemantics() &&
         generic.getNumLoops() == generic.getNumParallelLoops() &&
         generic.getBody()->getOperations().size() <= kMaxRecomputedOps + 1;
}

/// Whether recomputing `op`'s result where it is read moves no more memory
/// than writing it and reading it there: an elementwise generic of one
/// result with a short body whose R uses, each computing it from its inputs
/// (R x inputs), read no more than it does now (inputs + result + R x
/// result); none of its readers is a contraction, which would read the
/// inputs in its operand copies, once per tile. An input that a GEMM's
/// epilogue could compute (isComputedFromC) counts as the epilogue would
/// take it: kept, the op is computed from it in registers (its other
/// inputs + result + R x result); recomputed, the input is stored and read
/// by every reader (R x inputs + that input). A ReLU's gradient in f16
/// that a GEMM's operand and a bias gradient read is stored as f16 by the
/// GEMM that computes it, not as C in f32.
static bool isCheapToRecompute(Operation *op) {
  auto generic = dyn_cast<linalg::GenericOp>(op);
  if (!isShortElementwise(generic) ||
      llvm::any_of(generic->getUsers(), [](Operation *user) {
        auto reader = dyn_cast<linalg::LinalgOp>(user);
        return !reader || linalg::isaContractionOpInterface(reader);
      }))
    return false;
  // An elementwise reader with several uses, recomputing `op`, could be the
  // epilogue itself; kept, `op` would take the epilogue and leave the
  // reader a kernel of its own. Not one that also reads a value computed
  // after `op` (a softmax's exp reading the rows' maxima of `op`'s
  // result), which an epilogue cannot.
  SmallVector<Operation *> readers = getLiveUsers(generic->getResult(0));
  auto isComputedAfter = [&](Value value) {
    Operation *producer = value.getDefiningOp();
    return producer && producer->getBlock() == op->getBlock() &&
           op->isBeforeInBlock(producer);
  };
  bool readersFuse = llvm::none_of(readers, [&](Operation *user) {
    auto reader = dyn_cast<linalg::GenericOp>(user);
    return reader && reader.getNumLoops() == reader.getNumParallelLoops() &&
           getLiveUsers(reader->getResult(0)).size() > 1 &&
           llvm::none_of(reader.getDpsInputs(), isComputedAfter);
  });
  std::optional<int64_t> result = getStaticBytes(generic->getResult(0));
  int64_t inputs = 0, epilogue = 0;
  for (Value input : generic.getDpsInputs()) {
    std::optional<int64_t> bytes = getStaticBytes(input);
    if (!bytes || !result)
      return false;
    inputs += *bytes;
    if (readersFuse && isComputedFromC(input, generic))
      epilogue += *bytes;
  }
  // On a tie with an input the epilogue computes, kept: recomputed, the
  // readers rely on that input being stored, which its own readers may
  // then recompute from C instead.
  return isCheaperRecomputed(static_cast<int64_t>(readers.size()), inputs,
                             *result, epilogue);
}

/// Whether `producer`, read by the transpose `reader`, is a short
/// elementwise generic (isShortElementwise) computed from the function's
/// arguments alone, whose other readers are all contractions that are
/// generated kernels (not library calls, `mp.gpu_gemm`): computed by
/// the transpose from its inputs, it is left to the contractions alone,
/// whose operand copies compute it (a weight's cast that the forward GEMM
/// reads transposed and the input gradient's GEMM as it is), so that
/// neither it nor the transpose is stored. (From a computed value, the cast
/// is better computed where that value is: the kernel computing it writes
/// the cast too.)
static bool isTransposedForContractions(Operation *producer,
                                        Operation *reader) {
  auto generic = dyn_cast<linalg::GenericOp>(producer);
  return isShortElementwise(generic) && isTensorTranspose(reader) &&
         llvm::all_of(generic.getDpsInputs(),
                      [](Value input) { return isa<BlockArgument>(input); }) &&
         llvm::all_of(
             getLiveUsers(generic->getResult(0)), [&](Operation *user) {
               auto linalgUser = dyn_cast<linalg::LinalgOp>(user);
               return user == reader ||
                      (linalgUser &&
                       linalg::isaContractionOpInterface(linalgUser) &&
                       !user->hasAttr(
                           MPDialect::GpuGemmAttrHelper::getNameStr()));
             });
}

namespace {
/// Which producers fusion takes: one with one use, or with `recompute` also
/// one that is cheap to recompute, a transpose (its reader then reads the
/// transpose's input instead, as many bytes, and the transpose is left to
/// its other readers: a GEMM, which computes it in its operand copies), or
/// one that a transpose and contractions read
/// (isTransposedForContractions); into anything but a contraction or a
/// convolution (a filter gradient as a generic, which a library computes
/// from its operands as they are).
struct FusionControl {
  bool recompute;
  bool operator()(OpOperand *operand) const {
    Operation *producer = operand->get().getDefiningOp();
    if (!producer ||
        !(producer->hasOneUse() ||
          (recompute &&
           (isCheapToRecompute(producer) || isTensorTranspose(producer) ||
            isTransposedForContractions(producer, operand->getOwner())))))
      return false;
    auto consumer = dyn_cast<linalg::LinalgOp>(operand->getOwner());
    return !consumer || (!linalg::isaContractionOpInterface(consumer) &&
                         !linalg::isaConvolutionOpInterface(consumer));
  }
};
} // namespace

/// Whether `op` is an elementwise generic on tensors whose results are
/// written at the loop indices (identity output maps) and whose body does
/// not read its outputs.
static bool isPlainElementwise(linalg::GenericOp op) {
  return op.hasPureTensorSemantics() &&
         op.getNumLoops() == op.getNumParallelLoops() &&
         llvm::all_of(op.getDpsInitsMutable(), [&](OpOperand &init) {
           return op.getMatchingIndexingMap(&init).isIdentity() &&
                  !op.payloadUsesValueFromOperand(&init);
         });
}

/// Merges into `producer` (an elementwise generic of several results) the
/// elementwise generics that read them, each one result at the same
/// indices, when every result has at most one such reader and no other
/// use: one op computes the producer's values and the readers' from them
/// (an optimizer's update of a parameter and its moments, and the selects
/// that keep the old values on a skipped step, as one kernel that reads
/// each input once). Upstream's fusion would copy the producer into each
/// reader instead. The merged op takes the producer's place in the
/// readers' first position; it writes into the producer's outputs.
static void absorbReaders(IRRewriter &rewriter, DominanceInfo &dominance,
                          linalg::GenericOp producer) {
  if (producer->getNumResults() < 2 || !isPlainElementwise(producer))
    return;
  unsigned numLoops = producer.getNumLoops();
  // The reader of each result (null: none); the first reader in the block.
  SmallVector<linalg::GenericOp> readers;
  Operation *first = nullptr;
  for (OpResult result : producer->getResults()) {
    if (result.use_empty()) {
      readers.push_back(nullptr);
      continue;
    }
    auto reader = dyn_cast<linalg::GenericOp>(*result.user_begin());
    if (!result.hasOneUse() || !reader || reader->getNumResults() != 1 ||
        reader->getBlock() != producer->getBlock() ||
        !isPlainElementwise(reader) || reader.getNumLoops() != numLoops ||
        llvm::is_contained(readers, reader))
      return;
    OpOperand &use = *result.use_begin();
    if (!reader.isDpsInput(&use) ||
        !reader.getMatchingIndexingMap(&use).isIdentity())
      return;
    readers.push_back(reader);
    if (!first || reader->isBeforeInBlock(first))
      first = reader;
  }
  if (!first)
    return;
  // The readers' other inputs must exist where the merged op goes.
  SmallVector<Value> inputs = producer.getDpsInputs();
  SmallVector<AffineMap> maps = llvm::map_to_vector(
      producer.getDpsInputOperands(), [&](OpOperand *operand) {
        return producer.getMatchingIndexingMap(operand);
      });
  for (linalg::GenericOp reader : readers) {
    if (!reader)
      continue;
    for (OpOperand *operand : reader.getDpsInputOperands()) {
      if (operand->get().getDefiningOp() == producer)
        continue;
      if (!dominance.properlyDominates(operand->get(), first))
        return;
      inputs.push_back(operand->get());
      maps.push_back(reader.getMatchingIndexingMap(operand));
    }
  }
  SmallVector<Value> inits = producer.getDpsInits();
  maps.append(inits.size(), rewriter.getMultiDimIdentityMap(numLoops));

  rewriter.setInsertionPoint(first);
  auto merged = linalg::GenericOp::create(
      rewriter, producer.getLoc(), producer->getResultTypes(), inputs, inits,
      maps, producer.getIteratorTypesArray());
  Block *body = rewriter.createBlock(&merged.getRegion());
  for (Value value : llvm::concat<Value>(inputs, inits))
    body->addArgument(getElementTypeOrSelf(value.getType()), value.getLoc());
  // The producer's body on its arguments, then each reader's on its own
  // inputs and the producer's value of the result it read.
  IRMapping mapping;
  Block &producerBody = producer.getRegion().front();
  unsigned numProducerInputs = producer.getNumDpsInputs();
  for (auto [i, arg] : llvm::enumerate(producerBody.getArguments()))
    mapping.map(arg,
                i < numProducerInputs
                    ? body->getArgument(i)
                    : body->getArgument(inputs.size() + i - numProducerInputs));
  for (Operation &op : producerBody.without_terminator())
    rewriter.clone(op, mapping);
  SmallVector<Value> values =
      llvm::map_to_vector(producerBody.getTerminator()->getOperands(),
                          [&](Value v) { return mapping.lookupOrDefault(v); });
  SmallVector<Value> yields = values;
  unsigned nextInput = numProducerInputs;
  for (auto [j, reader] : llvm::enumerate(readers)) {
    if (!reader)
      continue;
    Block &readerBody = reader.getRegion().front();
    for (OpOperand *operand : reader.getDpsInputOperands()) {
      BlockArgument arg = readerBody.getArgument(operand->getOperandNumber());
      mapping.map(arg,
                  operand->get().getDefiningOp() == producer
                      ? values[cast<OpResult>(operand->get()).getResultNumber()]
                      : body->getArgument(nextInput++));
    }
    for (Operation &op : readerBody.without_terminator())
      rewriter.clone(op, mapping);
    yields[j] =
        mapping.lookupOrDefault(readerBody.getTerminator()->getOperand(0));
  }
  linalg::YieldOp::create(rewriter, producer.getLoc(), yields);

  for (auto [j, reader] : llvm::enumerate(readers))
    if (reader)
      rewriter.replaceOp(reader, merged->getResult(j));
  rewriter.eraseOp(producer);
}

namespace {
struct FuseElementwisePass
    : public mp::impl::FuseElementwisePassBase<FuseElementwisePass> {
  using Base::Base;

  void runOnOperation() override {
    // Named elementwise ops (broadcasts, transposes, linalg.add...) as
    // generics, which fusion takes.
    SmallVector<linalg::LinalgOp> named;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (!isa<linalg::GenericOp>(op) && op.hasPureTensorSemantics() &&
          op.getNumLoops() == op.getNumParallelLoops() &&
          !isa<linalg::FillOp, linalg::CopyOp>(op) &&
          !linalg::isaContractionOpInterface(op))
        named.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : named) {
      rewriter.setInsertionPoint(op);
      (void)linalg::generalizeNamedOp(rewriter, op);
    }
    // (Readers have one result: none of them is in the list.)
    SmallVector<linalg::GenericOp> producers;
    getOperation()->walk([&](linalg::GenericOp op) {
      if (op->getNumResults() > 1)
        producers.push_back(op);
    });
    DominanceInfo dominance(getOperation());
    for (linalg::GenericOp producer : producers)
      absorbReaders(rewriter, dominance, producer);
    RewritePatternSet patterns(&getContext());
    linalg::populateElementwiseOpsFusionPatterns(patterns,
                                                 FusionControl{recompute});
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
