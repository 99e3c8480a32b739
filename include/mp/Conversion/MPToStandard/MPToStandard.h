//===- MPToStandard.h - mp ops to upstream dialects -------------*- C++ -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef MP_CONVERSION_MPTOSTANDARD_MPTOSTANDARD_H
#define MP_CONVERSION_MPTOSTANDARD_MPTOSTANDARD_H

namespace mlir {
class RewritePatternSet;
namespace mp {

/// Conversion patterns of convert-mp-to-standard: `mp.scale_seed`,
/// `mp.unscale` and `mp.update_scale` to arith, linalg, math and tensor ops.
void populateMPToStandardConversionPatterns(RewritePatternSet &patterns);

} // namespace mp
} // namespace mlir

#endif // MP_CONVERSION_MPTOSTANDARD_MPTOSTANDARD_H
