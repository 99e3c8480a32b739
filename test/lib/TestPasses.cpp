//===- TestPasses.cpp - Register mp's test-only passes -----------*- C++
//-*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

namespace mlir {
namespace mp {
void registerTestAmpInvariantsPass();
void registerTestFragmentLayoutPass();
void registerTestVerifyPass();

void registerTestPasses() {
  registerTestAmpInvariantsPass();
  registerTestFragmentLayoutPass();
  registerTestVerifyPass();
}
} // namespace mp
} // namespace mlir
