//===- MPDialect.td - mp dialect definition ----------------*- tablegen -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef MP_DIALECT_MP_IR_MPDIALECT_TD
#define MP_DIALECT_MP_IR_MPDIALECT_TD

include "mlir/IR/DialectBase.td"

def MP_Dialect : Dialect {
  let name = "mp";
  let cppNamespace = "::mlir::mp";
  let summary = "Automatic mixed precision: precision attributes and training ops";
  let description = [{
    The `mp` dialect holds what upstream MLIR lacks for automatic mixed
    precision (AMP). Graphs themselves stay in upstream dialects (`func`,
    `linalg`, `tensor`, `arith`, `math`, `scf`); mp contributes:

    * `#mp.precision<...>`: a floating-point precision (f32, f16, bf16, and
      the fp8 formats e4m3/e5m2 reserved for later stages);
    * `#mp.class<...>`: the precision class an op belongs to (allow, deny,
      infer, clear);
    * discardable attributes that the passes read and write:
      - `mp.override = #mp.precision<f16>` forces the precision of an op; on a
        function or any op with regions it applies to every op inside (the
        innermost override wins);
      - `mp.class` and `mp.precision`, written by `mp-classify-precision` and
        consumed (and removed) by `mp-insert-casts`. On `scf.for`, `scf.if`
        and `scf.while`, `mp.precision` is an array with one precision per
        carried value (for `scf.while`: the `before` arguments, then the
        results).
      - `mp.accumulator`, written by `mp-classify-precision` with
        `low-precision-accumulation`, gives the accumulator precision of a
        contraction, convolution or sum that goes low (f32 when absent).

    Gradient functions (the training contract) mark their arguments
    `mp.param` (a parameter, an fp32 master weight), `mp.input` (data) or
    `mp.grad_seed` (dLoss/dLoss, a `tensor<f32>`), and their results
    `mp.loss` (a `tensor<f32>`), `mp.grad_of = N` (the gradient of argument
    N) or `mp.output` (anything else, e.g. logits);
    `mp-verify-training-contract` checks them together. Training state that
    the runtime threads from step to step is an argument
    `mp.state = <initial value>` (e.g. `0.0 : f32`) whose next value is the
    result `mp.updates = N`; `mp.loss_scale` marks the loss-scale state and
    `mp.found_inf` the `tensor<i1>` overflow flag result.

    ```mlir
    %0 = linalg.matmul {mp.override = #mp.precision<f32>}
           ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>)
           outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
    ```
  }];
  let useDefaultAttributePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let hasRegionArgAttrVerify = 1;
  let hasRegionResultAttrVerify = 1;
  let extraClassDeclaration = [{
    /// Names of the discardable attributes owned by this dialect.
    static constexpr ::llvm::StringLiteral kOverrideAttrName = "mp.override";
    static constexpr ::llvm::StringLiteral kClassAttrName = "mp.class";
    static constexpr ::llvm::StringLiteral kPrecisionAttrName = "mp.precision";
    static constexpr ::llvm::StringLiteral kAccumulatorAttrName =
        "mp.accumulator";
    /// Roles of the training contract (docs/Design.md), on function
    /// arguments and results.
    static constexpr ::llvm::StringLiteral kParamAttrName = "mp.param";
    static constexpr ::llvm::StringLiteral kInputAttrName = "mp.input";
    static constexpr ::llvm::StringLiteral kGradSeedAttrName = "mp.grad_seed";
    static constexpr ::llvm::StringLiteral kLossAttrName = "mp.loss";
    static constexpr ::llvm::StringLiteral kGradOfAttrName = "mp.grad_of";
    static constexpr ::llvm::StringLiteral kOutputAttrName = "mp.output";
    /// State threaded by the runtime from one training step to the next: an
    /// argument `mp.state = <initial value>` and the result
    /// `mp.updates = <argument index>` that replaces it after each step.
    static constexpr ::llvm::StringLiteral kStateAttrName = "mp.state";
    static constexpr ::llvm::StringLiteral kUpdatesAttrName = "mp.updates";
    /// The loss-scale state argument and the overflow flag result.
    static constexpr ::llvm::StringLiteral kLossScaleAttrName = "mp.loss_scale";
    static constexpr ::llvm::StringLiteral kFoundInfAttrName = "mp.found_inf";
  }];
}

#endif // MP_DIALECT_MP_IR_MPDIALECT_TD
