//===- SignatureTest.cpp - The compiler's side of entry signatures -*- C++ -*-//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// The compiler writes the signature grammar of docs/Signature.md with the
// roles of its ODS enum; the runtime reads it with mp_role. These tests pin
// the compiler's side (the runtime's reads the same text, RuntimeTest.cpp).
//
//===----------------------------------------------------------------------===//

#include "mp/Compiler/CpuCompiler.h"
#include "mp/Dialect/MP/IR/MPDialect.h"
#include "mp/Runtime/mp_runtime.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::mp;

namespace {

TEST(SignatureTest, RolesAreSpelledAsTheRuntimeSpellsThem) {
  for (uint32_t value = 0; value <= getMaxEnumValForRole() + 1; ++value) {
    std::optional<Role> role = symbolizeRole(value);
    const char *name = mp_role_name(static_cast<mp_role>(value));
    if (!role) {
      // 0 is MP_ROLE_NONE; past the end, neither side knows the value.
      EXPECT_EQ(name ? std::string(name) : "null", value == 0 ? "" : "null");
      continue;
    }
    ASSERT_NE(name, nullptr) << stringifyRole(*role).str();
    EXPECT_EQ(stringifyRole(*role).str(), name);
    EXPECT_EQ(MPDialect::getRoleAttrName(*role), "mp." + std::string(name));
  }
}

// The signature of the training step in runtime/test/fake_module.c, written
// from IR.
TEST(SignatureTest, WritesTheRuntimeGrammar) {
  MLIRContext ctx;
  ctx.loadDialect<arith::ArithDialect, func::FuncDialect, MPDialect>();
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(R"mlir(
    func.func @step(%p: tensor<2xf32> {mp.param},
                    %s: tensor<f32> {mp.state = 4.0 : f32, mp.loss_scale},
                    %x: tensor<2xf32> {mp.input},
                    %seed: tensor<f32> {mp.grad_seed})
        -> (tensor<2xf32> {mp.updates = 0 : i64},
            tensor<f32> {mp.updates = 1 : i64}, tensor<f32> {mp.loss}) {
      return %p, %s, %s : tensor<2xf32>, tensor<f32>, tensor<f32>
    }
    func.func @plain(%a: tensor<?x3xbf16>, %n: index, %b: i1)
        -> (tensor<i32>, tensor<2xf32> {mp.grad_of = 0 : i64}) {
      %c = arith.constant dense<0> : tensor<i32>
      %d = arith.constant dense<0.5> : tensor<2xf32>
      return %c, %d : tensor<i32>, tensor<2xf32>
    }
  )mlir",
                                                             &ctx);
  ASSERT_TRUE(module);
  FailureOr<std::string> step =
      getEntrySignature(module->lookupSymbol<func::FuncOp>("step"));
  ASSERT_TRUE(succeeded(step));
  EXPECT_EQ(*step, "f32[2]@param;f32[]@loss_scale=4;f32[2]@input;"
                   "f32[]@grad_seed->f32[2]@updates=0;f32[]@updates=1;"
                   "f32[]@loss");
  FailureOr<std::string> plain =
      getEntrySignature(module->lookupSymbol<func::FuncOp>("plain"));
  ASSERT_TRUE(succeeded(plain));
  EXPECT_EQ(*plain, "bf16[?,3];i64;i1->i32[];f32[2]@grad_of=0");
}

// Integer tensors whose elements index a table in a linalg body (an
// embedding's ids, through a reshape and a call) carry the size of the
// dimension they index, the smallest of several; others none.
TEST(SignatureTest, BoundsIndices) {
  MLIRContext ctx;
  ctx.loadDialect<arith::ArithDialect, func::FuncDialect, linalg::LinalgDialect,
                  tensor::TensorDialect, MPDialect>();
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(R"mlir(
    func.func private @rows(%t: tensor<10x6xf32>, %ids: tensor<5xi64>)
        -> tensor<5x6xf32> {
      %e = tensor.empty() : tensor<5x6xf32>
      %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i)>,
                                            affine_map<(i, j) -> (i, j)>],
                           iterator_types = ["parallel", "parallel"]}
          ins(%ids : tensor<5xi64>) outs(%e : tensor<5x6xf32>) {
      ^bb0(%id: i64, %o: f32):
        %i = arith.index_cast %id : i64 to index
        %j = linalg.index 1 : index
        %x = tensor.extract %t[%i, %j] : tensor<10x6xf32>
        %y = tensor.extract %t[%j, %i] : tensor<10x6xf32>
        %s = arith.addf %x, %y : f32
        linalg.yield %s : f32
      } -> tensor<5x6xf32>
      return %r : tensor<5x6xf32>
    }
    func.func @embed(%t: tensor<10x6xf32>, %ids: tensor<1x5xi64> {mp.input},
                     %n: tensor<5xi64>) -> tensor<5x6xf32> {
      %flat = tensor.collapse_shape %ids [[0, 1]]
          : tensor<1x5xi64> into tensor<5xi64>
      %r = func.call @rows(%t, %flat)
          : (tensor<10x6xf32>, tensor<5xi64>) -> tensor<5x6xf32>
      return %r : tensor<5x6xf32>
    }
  )mlir",
                                                             &ctx);
  ASSERT_TRUE(module);
  FailureOr<std::string> embed =
      getEntrySignature(module->lookupSymbol<func::FuncOp>("embed"));
  ASSERT_TRUE(succeeded(embed));
  EXPECT_EQ(*embed, "f32[10,6];i64[1,5]<6@input;i64[5]->f32[5,6]");
}

} // namespace
