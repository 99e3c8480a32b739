//===- TensorMathTest.cpp - Tests of the tensor builders --------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "mp/Utils/TensorMath.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::mp;

namespace {

/// Counts what a rewriter tells its listener.
struct Recorder : public RewriterBase::Listener {
  void notifyOperationInserted(Operation *, OpBuilder::InsertPoint) override {
    ++inserted;
  }
  void notifyOperationErased(Operation *) override { ++erased; }
  int inserted = 0, erased = 0;
};

// A body rebuilt for new operand types goes through the rewriter: a pattern
// driver sees every op it erases and creates (a private builder would
// insert the new body behind its back).
TEST(TensorMathTest, RegeneratedBodyNotifiesTheRewriter) {
  MLIRContext ctx;
  ctx.loadDialect<arith::ArithDialect, func::FuncDialect, linalg::LinalgDialect,
                  tensor::TensorDialect>();
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(R"mlir(
    func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>,
                 %c: tensor<4x4xf32>) -> tensor<4x4xf32> {
      %0 = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x4xf32>)
                         outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
      return %0 : tensor<4x4xf32>
    }
  )mlir",
                                                             &ctx);
  ASSERT_TRUE(module);
  linalg::MatmulOp matmul;
  module->walk([&](linalg::MatmulOp op) { matmul = op; });
  ASSERT_TRUE(matmul);
  // Narrow the inputs: the body must now widen them.
  Type f16 = Float16Type::get(&ctx);
  for (Value input : matmul.getDpsInputs())
    input.setType(cast<RankedTensorType>(input.getType()).clone(f16));
  Block *body = matmul.getBlock();
  for (unsigned i = 0; i < 2; ++i)
    body->getArgument(i).setType(f16);
  int before = body->getOperations().size();

  Recorder recorder;
  IRRewriter rewriter(&ctx, &recorder);
  regenerateNamedOpBody(rewriter, matmul);

  EXPECT_EQ(recorder.erased, before);
  EXPECT_EQ(recorder.inserted, static_cast<int>(body->getOperations().size()));
  EXPECT_GT(recorder.inserted, before); // two arith.extf more
  // (The function signature is left stale: only the matmul is checked.)
  EXPECT_TRUE(succeeded(verify(matmul)));
}

TEST(TensorMathTest, RecomputeRuleCountsBytes) {
  // Two readers recomputing from 4 input bytes read 8; kept, 4 are read,
  // 4 written and 8 read again.
  EXPECT_TRUE(isCheaperRecomputed(/*readers=*/2, /*inputs=*/4, /*result=*/4));
  // Three readers of a 1-byte result of 4 input bytes: 12 against 4 + 4.
  EXPECT_FALSE(isCheaperRecomputed(3, 4, 1));
  // A tie (12 against 6 + 2 + 4) is recomputed...
  EXPECT_TRUE(isCheaperRecomputed(2, 6, 2));
  // ...unless an epilogue computes an input: 2 x 4 + 1 against
  // 4 - 1 + 2 + 4, kept; with a larger result, recomputed (9 against 15).
  EXPECT_FALSE(isCheaperRecomputed(2, 4, 2, /*epilogue=*/1));
  EXPECT_TRUE(isCheaperRecomputed(2, 4, 4, /*epilogue=*/1));
  // Inputs that other kernels read anyway cost nothing kept: 2 x 4 against
  // 4 + 3 x 2 is recomputed, against 0 + 3 x 2 (all 4 shared) kept.
  EXPECT_TRUE(isCheaperRecomputed(2, 4, 2));
  EXPECT_FALSE(isCheaperRecomputed(2, 4, 2, /*epilogue=*/0, /*shared=*/4));
}

} // namespace
