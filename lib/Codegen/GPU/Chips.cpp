//===- Chips.cpp - The NVIDIA architectures mp compiles for ---------------===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#include "Chips.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::mp;

/// From sm_80 (mma.sync m16n8k16 of f16 and bf16, cp.async), the
/// architectures LLVM 22's NVPTX backend and CUDA 13's ptxas both take
/// (ptxas 13 dropped sm_101, which became sm_110; sm_88 is left out as
/// the programming guide does not list its shared memory). The minimum PTX
/// versions are LLVM's (it refuses older ones); sm_90a needs PTX 8.0.
static constexpr GpuChip kChips[] = {
    {80, 70, 163 * 1024},  {86, 71, 99 * 1024},   {87, 74, 163 * 1024},
    {89, 78, 99 * 1024},   {90, 78, 227 * 1024},  {100, 86, 227 * 1024},
    {103, 88, 227 * 1024}, {110, 90, 227 * 1024}, {120, 87, 99 * 1024},
    {121, 88, 99 * 1024},
};

/// Architecture-specific (`a`) variants exist from Hopper on.
static constexpr unsigned kFirstArchSpecific = 90;

std::optional<unsigned> mlir::mp::parseGpuChipVersion(llvm::StringRef name) {
  unsigned version;
  if (!name.consume_front("sm_") ||
      name.take_while(llvm::isDigit).getAsInteger(10, version))
    return std::nullopt;
  return version;
}

std::optional<GpuChip> mlir::mp::lookupGpuChip(llvm::StringRef name) {
  std::optional<unsigned> parsed = parseGpuChipVersion(name);
  if (!parsed)
    return std::nullopt;
  unsigned version = *parsed;
  llvm::StringRef suffix = name.drop_front(3).drop_while(llvm::isDigit);
  if (suffix != "" && suffix != "a")
    return std::nullopt;
  const GpuChip *chip = llvm::find_if(
      kChips, [&](const GpuChip &c) { return c.version == version; });
  if (chip == std::end(kChips) ||
      (suffix == "a" && version < kFirstArchSpecific))
    return std::nullopt;
  GpuChip result = *chip;
  if (version == 90 && suffix == "a")
    result.minPtx = 80;
  return result;
}

std::string mlir::mp::listGpuChips() {
  return llvm::join(llvm::map_range(kChips,
                                    [](const GpuChip &c) {
                                      std::string name =
                                          "sm_" + std::to_string(c.version);
                                      if (c.version >= kFirstArchSpecific)
                                        name += "(a)";
                                      return name;
                                    }),
                    ", ");
}

std::optional<unsigned> mlir::mp::parsePtxFeatures(llvm::StringRef features) {
  // LLVM 22's PTX versions from 7.0: 7.0-7.8, 8.0-8.8 and 9.0.
  unsigned ptx;
  if (!features.consume_front("+ptx") || features.getAsInteger(10, ptx) ||
      ptx < 70 || ptx > 90 || ptx == 79 || ptx == 89)
    return std::nullopt;
  return ptx;
}

std::string mlir::mp::getChipPtxFeatures(const GpuChip &chip, unsigned ptx) {
  return "+ptx" + std::to_string(std::max(ptx, chip.minPtx));
}
