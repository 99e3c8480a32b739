//===- MPOps.td - mp operations ----------------------------*- tablegen -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef MP_DIALECT_MP_IR_MPOPS_TD
#define MP_DIALECT_MP_IR_MPOPS_TD

include "mp/Dialect/MP/IR/MPDialect.td"
include "mp/Dialect/MP/IR/MPAttrs.td"
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

// The AMP rewrite itself needs no op (graphs use upstream ops and
// arith.truncf/extf). Loss scaling does: these ops carry its semantics until
// convert-mp-to-standard turns them into arith/linalg/tensor ops.

class MP_Op<string mnemonic, list<Trait> traits = []>
    : Op<MP_Dialect, mnemonic, traits>;

// 0-d tensors, buildable so that the assembly format needs no types.
def MP_ScalarF32 : 0DTensorOf<[F32]> {
  let builderCall = "::mlir::RankedTensorType::get({}, $_builder.getF32Type())";
}
def MP_ScalarI32 : 0DTensorOf<[I32]> {
  let builderCall =
      "::mlir::RankedTensorType::get({}, $_builder.getIntegerType(32))";
}
def MP_ScalarI1 : 0DTensorOf<[I1]> {
  let builderCall = "::mlir::RankedTensorType::get({}, $_builder.getI1Type())";
}

def MP_ScaleSeedOp : MP_Op<"scale_seed", [Pure]> {
  let summary = "Multiply the backward seed by the loss scale";
  let description = [{
    The backward pass of a gradient function is linear in its seed, so
    seeding it with `seed * scale` scales every gradient by `scale` exactly.

    ```mlir
    %s = mp.scale_seed %seed, %scale
    ```
  }];
  let arguments = (ins MP_ScalarF32:$seed, MP_ScalarF32:$scale);
  let results = (outs MP_ScalarF32:$result);
  let assemblyFormat = "$seed `,` $scale attr-dict";
}

def MP_UnscaleOp : MP_Op<"unscale", [Pure]> {
  let summary = "Unscale gradients in f32 and check them all for inf/NaN";
  let description = [{
    Returns each gradient multiplied by `1 / scale`, computed in f32 (f16 and
    bf16 gradients are widened first), and one flag, true if any element of
    any gradient is infinite or NaN.

    ```mlir
    %g0, %g1, %found_inf = mp.unscale %scale, %dw, %db
        : tensor<4x4xf16>, tensor<4xf32> -> tensor<4x4xf32>, tensor<4xf32>
    ```
  }];
  let arguments = (ins MP_ScalarF32:$scale,
                   Variadic<RankedTensorOf<[F32, F16, BF16]>>:$grads);
  let results = (outs Variadic<RankedTensorOf<[F32]>>:$unscaled,
                 MP_ScalarI1:$found_inf);
  let assemblyFormat = [{
    $scale `,` $grads attr-dict `:` type($grads) `->` type($unscaled)
  }];
  let hasVerifier = 1;
}

def MP_UpdateScaleOp : MP_Op<"update_scale", [Pure]> {
  let summary = "Update the loss scale and its growth tracker";
  let description = [{
    PyTorch GradScaler's rule: on overflow (`found_inf`) the scale is
    multiplied by `backoff_factor` and the tracker reset to 0; otherwise the
    tracker counts clean steps and, when it reaches `growth_interval`, the
    scale is multiplied by `growth_factor` (unless that overflows f32) and
    the tracker reset. The result is then clamped to `[min_scale,
    max_scale]` when given (so the scale never reaches 0 or inf).

    With `hysteresis = H > 1` (Megatron-LM's rule) the op also takes and
    returns a hysteresis counter: each overflow decrements it and the scale
    only backs off once it is at or below 0, so H - 1 overflows in a row are
    tolerated; growth resets it to H.

    ```mlir
    %scale2, %tracker2 = mp.update_scale %scale, %tracker, %found_inf
        {growth_interval = 2000 : i32, min_scale = 1.0 : f32}
    %s, %t, %h2 = mp.update_scale %scale, %tracker, %found_inf
        hysteresis %h : tensor<i32> {hysteresis = 2 : i32}
    ```
  }];
  let arguments = (ins MP_ScalarF32:$scale, MP_ScalarI32:$tracker,
                   MP_ScalarI1:$found_inf,
                   Optional<MP_ScalarI32>:$hysteresis_tracker,
                   DefaultValuedAttr<F32Attr, "2.0">:$growth_factor,
                   DefaultValuedAttr<F32Attr, "0.5">:$backoff_factor,
                   DefaultValuedAttr<I32Attr, "2000">:$growth_interval,
                   DefaultValuedAttr<I32Attr, "1">:$hysteresis,
                   OptionalAttr<F32Attr>:$min_scale,
                   OptionalAttr<F32Attr>:$max_scale);
  let results = (outs MP_ScalarF32:$new_scale, MP_ScalarI32:$new_tracker,
                 Optional<MP_ScalarI32>:$new_hysteresis_tracker);
  let assemblyFormat = [{
    $scale `,` $tracker `,` $found_inf
    (`hysteresis` $hysteresis_tracker^ `:` type($new_hysteresis_tracker))?
    attr-dict
  }];
  let hasVerifier = 1;
}

#endif // MP_DIALECT_MP_IR_MPOPS_TD
