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

void registerTestPasses() {
  registerTestAmpInvariantsPass();
  registerTestFragmentLayoutPass();
}
} // namespace mp
} // namespace mlir
