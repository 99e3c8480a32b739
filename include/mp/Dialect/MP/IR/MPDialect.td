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
        consumed (and removed) by `mp-insert-casts`. On ops that carry values
        through regions (`scf.for`, `scf.while`, `affine.for`, ...),
        `mp.precision` is an array with one precision per carried value
        (for `scf.while`: the `before` arguments, then the results).
      - `mp.accumulator`, written by `mp-classify-precision` with
        `low-precision-accumulation`, gives the accumulator precision of a
        contraction, convolution or sum that goes low (f32 when absent).
      - `mp.signature_precision`, written on a function by
        `mp-classify-precision` with `low-precision-boundaries`: its f32
        arguments and results may take this precision.

    Gradient functions (the training contract, docs/Design.md) mark each
    argument and result with a role, an attribute `mp.<role>`:

    | role | on | value | meaning |
    |------|----|-------|---------|
    | `param` | argument | unit | a parameter (fp32 master weight) |
    | `input` | argument | unit | data |
    | `grad_seed` | argument | unit | dLoss/dLoss, a `tensor<f32>` |
    | `state` | argument | initial value | state the runtime threads from step to step |
    | `loss_scale` | argument | unit | marks the `mp.state` holding the loss scale |
    | `loss` | result | unit | the loss, a `tensor<f32>` |
    | `grad_of` | result | argument index | the gradient of an `mp.param` |
    | `updates` | result | argument index | the next value of an `mp.param` or `mp.state` |
    | `found_inf` | result | unit | the `tensor<i1>` overflow flag |
    | `output` | result | unit | anything else, e.g. logits |

    `mp-verify-training-contract` checks them together.

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
  let discardableAttrs = (ins
    "::mlir::mp::PrecisionAttr":$override,
    "::mlir::mp::PrecisionClassAttr":$class,
    // A precision, or an array of them on ops that carry values.
    "::mlir::Attribute":$precision,
    "::mlir::mp::PrecisionAttr":$accumulator,
    "::mlir::mp::PrecisionAttr":$signature_precision,
    // The GPU backend's tiles for one contraction: rows and columns of C per
    // thread block and per warp (set by mp-gpu-choose-tiles).
    "::mlir::DenseI64ArrayAttr":$gpu_tile,
    // How the GPU backend computes one contraction: "library" (cuBLASLt; set
    // by mp-gpu-select-gemm).
    "::mlir::StringAttr":$gpu_gemm,
    // On a store of a Tensor Core block's panel copy into workgroup memory,
    // how the GPU may issue it (set by mp-gpu-tile-contractions, used by
    // mp-gpu-async-copies): "ahead" (cp.async before the K loop for one of
    // its first steps) or "prefetch" (cp.async on a trip of the K loop for
    // a later step), each waited for before the step that reads it.
    "::mlir::StringAttr":$gpu_copy,
    // On a reduction's thread blocks (an scf.forall, then the gpu.launch it
    // becomes), how mp-gpu-tile-reductions distributes it, for the kernel
    // report: "block" (a block per output element) or "warp" (a warp per
    // output element).
    "::mlir::StringAttr":$gpu_reduction,
    // On a runtime function's declaration: the function enqueues its work
    // on the CUDA backend's stream, in order with the kernels, and returns
    // before it ran (set by mp-gpu-library-gemm, used by
    // mp-gpu-async-launches).
    "::mlir::UnitAttr":$gpu_stream_ordered,
    // On the top-level module: the name of each GPU module that is a chip
    // variant of another to a reference to that module (set by
    // mp-gpu-wgmma-variants, used by mp-gpu-merge-chip-variants).
    "::mlir::DictionaryAttr":$gpu_chip_variants
  );
  let extraClassDeclaration = [{
    /// The name of the attribute that gives `role` to a function argument
    /// or result: "mp." followed by the role's spelling.
    static ::std::string getRoleAttrName(::mlir::mp::Role role);
  }];
}

#endif // MP_DIALECT_MP_IR_MPDIALECT_TD
