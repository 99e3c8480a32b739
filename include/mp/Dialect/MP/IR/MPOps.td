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
include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.td"
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

// Data-parallel training: what the runtime's communicator executes.

def MP_CollectiveElement : AnyTypeOf<[F32, F16, BF16, I1]>;

def MP_AllReduceOp : MP_Op<"all_reduce", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    DeclareOpInterfaceMethods<BufferizableOpInterface,
        ["bufferizesToMemoryRead", "bufferizesToMemoryWrite",
         "getAliasingValues", "bufferize"]>]> {
  let summary = "Combine a tensor element-wise across all ranks";
  let description = [{
    Every rank of a data-parallel run passes a value of the same type; every
    rank receives the element-wise `sum` (f32, f16, bf16) or `max` (any
    element type; on `i1` a logical OR) of all of them. Sums of f16 and bf16
    values add in f32 and round each partial sum to the element type, as a
    compressed all-reduce of PyTorch's DDP does. In a single process the op
    returns its operand.

    The ranks must reach the same collectives in the same order: the op has
    a side effect on the communicator, so no pass removes, merges or
    reorders it. On tensors it returns the result; bufferization makes it
    reduce a buffer in place (the memref form, no result), which
    `convert-mp-to-runtime` turns into a call of the runtime.

    ```mlir
    %sum = mp.all_reduce sum %grad : tensor<784x128xf32> -> tensor<784x128xf32>
    %any = mp.all_reduce max %found_inf : tensor<i1> -> tensor<i1>
    mp.all_reduce sum %buffer : memref<784x128xf16>
    ```
  }];
  let arguments = (ins MP_CollectiveKind:$kind,
                   AnyTypeOf<[RankedTensorOf<[MP_CollectiveElement]>,
                              MemRefOf<[MP_CollectiveElement]>]>:$input);
  let results = (outs Optional<RankedTensorOf<[MP_CollectiveElement]>>:$result);
  let assemblyFormat = [{
    $kind $input attr-dict `:` type($input) (`->` type($result)^)?
  }];
  let builders = [
    OpBuilder<(ins "CollectiveKind":$kind, "Value":$input), [{
      build($_builder, $_state,
            isa<TensorType>(input.getType()) ? input.getType() : Type(),
            kind, input);
    }]>
  ];
  let hasVerifier = 1;
}

def MP_WorldSizeOp : MP_Op<"world_size", [Pure]> {
  let summary = "The number of ranks of a data-parallel run";
  let description = [{
    1 in a single process. `convert-mp-to-runtime` turns it into a call of
    the runtime.

    ```mlir
    %n = mp.world_size : i32
    ```
  }];
  let results = (outs I32:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
}

#endif // MP_DIALECT_MP_IR_MPOPS_TD
