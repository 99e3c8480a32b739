//===- policy_fuzzer.cpp - libFuzzer target: policy files -----------------===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// Any text is a policy file to Policy::parse: a Policy or an error that
// names the file, never a crash.
//
//===----------------------------------------------------------------------===//

#include "mp/Analysis/Policy.h"

#include "llvm/Support/Error.h"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  llvm::Expected<mlir::mp::Policy> policy =
      mlir::mp::Policy::parse(text, "fuzz.yaml");
  if (!policy) {
    std::string message = llvm::toString(policy.takeError());
    if (!llvm::StringRef(message).starts_with("fuzz.yaml"))
      std::abort(); // an error that does not name the file
    return 0;
  }
  // What parsed is consistent.
  if (llvm::Error err = policy->verify()) {
    llvm::consumeError(std::move(err));
    std::abort();
  }
  return 0;
}
