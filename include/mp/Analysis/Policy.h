//===- Policy.h - AMP precision policies ------------------------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// A policy says which ops belong to the allow / deny / infer / clear lists and
// which low-precision type "allow" means. Policies are data: two are built in
// (`fp16`, `bf16`), users load others from JSON or YAML files and edit lists
// with pass options. See docs/Policies.md for the file schema.
//
//===----------------------------------------------------------------------===//

#ifndef MP_ANALYSIS_POLICY_H
#define MP_ANALYSIS_POLICY_H

#include "mp/Dialect/MP/IR/MPDialect.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>

namespace mlir {
namespace mp {

/// The painting level of a policy (PolicyLevel, generated from MPAttrs.td):
/// `default` (the full algorithm), `tensor-cores-only` (only allow-list ops
/// go low, nothing spreads), `treat-infer-as-deny`, `unsafe-force-all` (every
/// eligible op goes low, for experiments). A policy never has `FromPolicy`,
/// which options use to mean "the policy's own level".
std::optional<PolicyLevel> parsePolicyLevel(llvm::StringRef text);

/// Number of precision classes (allow, deny, infer, clear).
constexpr unsigned kNumPrecisionClasses = getMaxEnumValForPrecisionClass() + 1;
constexpr unsigned kNumPrecisions = getMaxEnumValForPrecision() + 1;

class Policy {
public:
  /// The built-in policies: "fp16" (f16, loss scaling on) and "bf16" (bf16,
  /// loss scaling off).
  static std::optional<Policy> getBuiltin(llvm::StringRef name);
  static llvm::ArrayRef<llvm::StringRef> getBuiltinNames();

  /// Parses a policy file (JSON or YAML). Errors name the file, the line and
  /// the column of the problem.
  static llvm::Expected<Policy> parse(llvm::StringRef text,
                                      llvm::StringRef fileName);

  /// A built-in name, or else the path of a policy file.
  static llvm::Expected<Policy> load(llvm::StringRef nameOrPath);

  /// Keys that name kinds of structured ops rather than ops:
  /// "linalg:contraction", "linalg:convolution", "linalg:additive-reduction".
  static llvm::ArrayRef<llvm::StringRef> getPseudoKeys();
  static bool isPseudoKey(llvm::StringRef key);

  /// The class of the op (or pseudo-op key such as "linalg:contraction"), if
  /// it is listed.
  std::optional<PrecisionClass> lookup(llvm::StringRef key) const;

  void add(PrecisionClass cls, llvm::StringRef key);
  /// Returns false if the key was not in that list.
  bool remove(PrecisionClass cls, llvm::StringRef key);

  /// Reports a key that is in two lists, with a hint how to fix it.
  llvm::Error verify() const;

  /// The keys of one list, sorted.
  std::vector<std::string> getKeys(PrecisionClass cls) const;

  const std::string &getName() const { return name; }
  Precision getLowPrecision() const { return lowPrecision; }
  PolicyLevel getLevel() const { return level; }
  bool getLossScaling() const { return lossScaling; }
  void setLevel(PolicyLevel newLevel) { level = newLevel; }
  void setName(llvm::StringRef newName) { name = newName.str(); }
  /// Also sets loss scaling to what the precision needs (on for f16).
  void setLowPrecision(Precision precision) {
    lowPrecision = precision;
    lossScaling = precision == Precision::f16;
  }
  void setLossScaling(bool enabled) { lossScaling = enabled; }

private:
  std::string name;
  Precision lowPrecision = Precision::f16;
  PolicyLevel level = PolicyLevel::Default;
  bool lossScaling = true;
  /// Key -> bit set of the classes it is listed in.
  llvm::StringMap<unsigned> lists;
};

} // namespace mp
} // namespace mlir

#endif // MP_ANALYSIS_POLICY_H
