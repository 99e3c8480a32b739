//===- Passes.td - mp conversion passes --------------------*- tablegen -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef MP_CONVERSION_PASSES_TD
#define MP_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertMPToStandardPass : Pass<"convert-mp-to-standard"> {
  let summary = "Lower the mp dialect's ops to arith, linalg, math and tensor";
  let description = [{
    A dialect conversion that marks the whole mp dialect illegal, so any mp
    op left after it is an error at that op's location:

    * `mp.scale_seed` becomes `arith.mulf` on `tensor<f32>`;
    * `mp.unscale` becomes one `linalg.generic` per gradient multiplying by
      `1 / scale` in f32 (after `arith.extf` of f16/bf16 values), and one
      reduction per gradient that ORs `!(|x| < inf)` (true for inf and NaN)
      into a single `tensor<i1>` flag chained through all gradients;
    * `mp.update_scale` becomes scalar arith on the extracted values with
      `arith.select` (PyTorch GradScaler's rule, Megatron-LM's hysteresis,
      the optional bounds), rebuilt with `tensor.from_elements`.

    mp's attributes (`mp.param`, `mp.state`...) are not ops and stay. Part of
    `mp-lower-to-cpu`; every backend runs it first.

    ```mlir
    %s = mp.scale_seed %seed, %scale
    // becomes
    %s = arith.mulf %seed, %scale : tensor<f32>
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::tensor::TensorDialect"];
}

#endif // MP_CONVERSION_PASSES_TD
