//===- PolicyTest.cpp - Tests of precision policies -------------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "mp/Analysis/Policy.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::mp;

namespace {

TEST(PolicyTest, BuiltinsListOnlyRegisteredOps) {
  MLIRContext ctx;
  ctx.loadDialect<arith::ArithDialect, linalg::LinalgDialect, math::MathDialect,
                  tensor::TensorDialect>();
  for (StringRef name : Policy::getBuiltinNames()) {
    std::optional<Policy> policy = Policy::getBuiltin(name);
    ASSERT_TRUE(policy.has_value());
    EXPECT_FALSE(static_cast<bool>(policy->verify()));
    for (unsigned i = 0; i < kNumPrecisionClasses; ++i)
      for (const std::string &key :
           policy->getKeys(static_cast<PrecisionClass>(i)))
        EXPECT_TRUE(Policy::isPseudoKey(key) ||
                    RegisteredOperationName::lookup(key, &ctx))
            << "built-in policy " << name.str() << " lists unknown op " << key;
  }
}

TEST(PolicyTest, BuiltinClasses) {
  Policy fp16 = *Policy::getBuiltin("fp16");
  EXPECT_EQ(fp16.getLowPrecision(), Precision::f16);
  EXPECT_TRUE(fp16.getLossScaling());
  EXPECT_EQ(fp16.lookup("linalg.matmul"), PrecisionClass::allow);
  EXPECT_EQ(fp16.lookup("linalg.softmax"), PrecisionClass::deny);
  EXPECT_EQ(fp16.lookup("math.exp"), PrecisionClass::deny);
  EXPECT_EQ(fp16.lookup("arith.addf"), PrecisionClass::infer);
  EXPECT_EQ(fp16.lookup("linalg.transpose"), PrecisionClass::clear);
  EXPECT_FALSE(fp16.lookup("func.call").has_value());
  Policy bf16 = *Policy::getBuiltin("bf16");
  EXPECT_EQ(bf16.getLowPrecision(), Precision::bf16);
  EXPECT_FALSE(bf16.getLossScaling());
  EXPECT_FALSE(Policy::getBuiltin("fp8").has_value());
}

TEST(PolicyTest, EditsAndConflicts) {
  Policy policy = *Policy::getBuiltin("fp16");
  EXPECT_TRUE(policy.remove(PrecisionClass::infer, "math.tanh"));
  EXPECT_FALSE(policy.remove(PrecisionClass::infer, "math.tanh"));
  policy.add(PrecisionClass::deny, "math.tanh");
  EXPECT_EQ(policy.lookup("math.tanh"), PrecisionClass::deny);
  EXPECT_FALSE(static_cast<bool>(policy.verify()));
  policy.add(PrecisionClass::allow, "math.tanh");
  llvm::Error err = policy.verify();
  ASSERT_TRUE(static_cast<bool>(err));
  EXPECT_EQ(llvm::toString(std::move(err)),
            "op 'math.tanh' is in two precision lists ('allow' and 'deny'); "
            "remove it from one, e.g. with allow-remove=math.tanh");
}

TEST(PolicyTest, ParsesYamlAndJson) {
  llvm::Expected<Policy> yaml = Policy::parse(
      "name: mine\nprecision: bf16\nallow: [linalg.matmul]\n", "p.yaml");
  ASSERT_TRUE(static_cast<bool>(yaml)) << llvm::toString(yaml.takeError());
  EXPECT_EQ(yaml->getName(), "mine");
  EXPECT_EQ(yaml->getLowPrecision(), Precision::bf16);
  EXPECT_FALSE(yaml->getLossScaling());
  EXPECT_EQ(yaml->lookup("linalg.matmul"), PrecisionClass::allow);
  EXPECT_FALSE(yaml->lookup("math.exp").has_value());

  llvm::Expected<Policy> json = Policy::parse(
      R"({"base": "bf16", "level": "tensor-cores-only", "loss_scaling": true,
          "remove": {"allow": ["linalg.dot"]}})",
      "p.json");
  ASSERT_TRUE(static_cast<bool>(json)) << llvm::toString(json.takeError());
  EXPECT_EQ(json->getLevel(), PolicyLevel::TensorCoresOnly);
  EXPECT_TRUE(json->getLossScaling());
  EXPECT_FALSE(json->lookup("linalg.dot").has_value());
  EXPECT_EQ(json->lookup("linalg.matmul"), PrecisionClass::allow);
}

/// The error of parsing `text` as the policy file `fileName`.
std::string parseError(StringRef text, StringRef fileName) {
  llvm::Expected<Policy> policy = Policy::parse(text, fileName);
  EXPECT_FALSE(static_cast<bool>(policy));
  return policy ? std::string() : llvm::toString(policy.takeError());
}

TEST(PolicyTest, ErrorsNameFileLineAndColumn) {
  auto errorOf = [](StringRef text) { return parseError(text, "p.json"); };
  EXPECT_EQ(errorOf("{\n  \"allow\": \"linalg.matmul\"\n}"),
            "p.json:2:12: not a sequence");
  EXPECT_EQ(errorOf("{\n  \"level\": \"fast\"\n}"),
            "p.json:2:12: unknown level; expected default, "
            "tensor-cores-only, treat-infer-as-deny or unsafe-force-all");
  EXPECT_EQ(errorOf("{\n \"add\": {\"maybe\": []}\n}"),
            "p.json:2:10: unknown key 'maybe'");
  EXPECT_EQ(errorOf("[1, 2]"), "p.json:1:2: not a mapping");
  EXPECT_EQ(errorOf(""), "p.json:1:1: empty policy file");
  EXPECT_EQ(errorOf("{\"base\": \"fp32\"}"),
            "p.json:1:10: unknown base policy; expected fp16 or bf16");
  EXPECT_EQ(errorOf("{\"precision\": \"f8e4m3\"}"),
            "p.json:1:15: unsupported precision; expected f16 or bf16 (fp8 "
            "is not supported yet)");
}

// The file format is as strict as the pass options.
TEST(PolicyTest, StrictFormat) {
  auto errorOf = [](StringRef text) { return parseError(text, "p.yaml"); };
  EXPECT_EQ(errorOf("base: fp16\nbase: bf16\n"),
            "p.yaml:2:1: duplicated mapping key 'base'");
  EXPECT_EQ(errorOf("base: fp16\n---\nbase: bf16\n"),
            "p.yaml: a policy file holds one document; remove what follows "
            "the first '---' or '...'");
  EXPECT_EQ(errorOf("allow: [linalg.matmul, '']\n"),
            "p.yaml:1:24: empty op name");
  EXPECT_EQ(errorOf("allow: [[linalg.matmul]]\n"),
            "p.yaml:1:10: unexpected scalar");
  EXPECT_EQ(errorOf("loss_scaling: maybe\n"), "p.yaml:1:15: invalid boolean");
  // Semantic checks name the file and the list.
  EXPECT_EQ(errorOf("base: fp16\nremove: {infer: [linalg.matmul]}\n"),
            "p.yaml:1:1: remove: 'linalg.matmul' is not in the infer list");
  EXPECT_EQ(errorOf("base: fp16\nadd: {deny: [linalg.matmul]}\n"),
            "p.yaml:1:1: op 'linalg.matmul' is in two precision lists "
            "('allow' and 'deny'); remove it from one, e.g. with "
            "allow-remove=linalg.matmul");
}

// Malformed files are errors, never crashes.
TEST(PolicyTest, MalformedFiles) {
  for (StringRef text : {"{", "- a", "allow: {", "add: [1]", "remove: 3",
                         "name: [x]", "~", "---\n...", "base: {fp16: 1}",
                         "allow: [a, [b]]", "\"a\": \"b", "add: {allow: x}",
                         "precision:", "base: fp16\nallow:", "level: [default]",
                         "%YAML 1.2\n---\n{}", "? [a]\n: b"}) {
    llvm::Expected<Policy> policy = Policy::parse(text, "p.yaml");
    if (policy)
      continue;
    EXPECT_TRUE(
        StringRef(llvm::toString(policy.takeError())).starts_with("p.yaml"))
        << text.str();
  }
}

TEST(PolicyTest, Levels) {
  for (PolicyLevel level :
       {PolicyLevel::Default, PolicyLevel::TensorCoresOnly,
        PolicyLevel::TreatInferAsDeny, PolicyLevel::UnsafeForceAll})
    EXPECT_EQ(parsePolicyLevel(stringifyPolicyLevel(level)), level);
  EXPECT_FALSE(parsePolicyLevel("TENSOR_CORES_ONLY").has_value());
}

} // namespace
