//===- MPAttrs.td - mp attributes and enums ----------------*- tablegen -*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef MP_DIALECT_MP_IR_MPATTRS_TD
#define MP_DIALECT_MP_IR_MPATTRS_TD

include "mp/Dialect/MP/IR/MPDialect.td"
include "mlir/IR/EnumAttr.td"

def MP_Precision : I32EnumAttr<"Precision", "floating-point precision", [
    I32EnumAttrCase<"f32", 0>,
    I32EnumAttrCase<"f16", 1>,
    I32EnumAttrCase<"bf16", 2>,
    I32EnumAttrCase<"f8E4M3FN", 3, "f8e4m3">,
    I32EnumAttrCase<"f8E5M2", 4, "f8e5m2">
  ]> {
  let cppNamespace = "::mlir::mp";
  let genSpecializedAttr = 0;
}

def MP_PrecisionAttr : EnumAttr<MP_Dialect, MP_Precision, "precision"> {
  let summary = "A floating-point precision";
  let description = [{
    One of `f32`, `f16`, `bf16`, `f8e4m3`, `f8e5m2`. The fp8 formats are
    reserved: the current passes reject them with an error.

    ```mlir
    #mp.precision<bf16>
    ```
  }];
  let assemblyFormat = "`<` $value `>`";
}

def MP_PrecisionClass : I32EnumAttr<"PrecisionClass", "AMP precision class", [
    I32EnumAttrCase<"allow", 0>,
    I32EnumAttrCase<"deny", 1>,
    I32EnumAttrCase<"infer", 2>,
    I32EnumAttrCase<"clear", 3>
  ]> {
  let cppNamespace = "::mlir::mp";
  let genSpecializedAttr = 0;
}

def MP_PrecisionClassAttr : EnumAttr<MP_Dialect, MP_PrecisionClass, "class"> {
  let summary = "The AMP precision class of an op";
  let description = [{
    * `allow`: profits from low precision (contractions, convolutions);
    * `deny`: must stay in f32 (exp, log, softmax, additive reductions, ...);
    * `infer`: follows its neighbours (elementwise arithmetic);
    * `clear`: has no numeric effect (layout and data movement).

    ```mlir
    #mp.class<allow>
    ```
  }];
  let assemblyFormat = "`<` $value `>`";
}

def MP_CollectiveKind : I32EnumAttr<"CollectiveKind",
    "how mp.all_reduce combines the ranks' values", [
    I32EnumAttrCase<"sum", 0>,
    I32EnumAttrCase<"max", 1>
  ]> {
  let cppNamespace = "::mlir::mp";
}

// The roles of the training contract. The numbers are the runtime's `mp_role`
// (mp_runtime.h, whose mp_role_name spells them the same way; a unit test
// checks both), so the compiler hands a role to the runtime as is.
def MP_Role : I32EnumAttr<"Role", "role of a gradient function's argument or result", [
    I32EnumAttrCase<"param", 1>,
    I32EnumAttrCase<"input", 2>,
    I32EnumAttrCase<"grad_seed", 3>,
    I32EnumAttrCase<"state", 4>,
    I32EnumAttrCase<"loss_scale", 5>,
    I32EnumAttrCase<"loss", 6>,
    I32EnumAttrCase<"grad_of", 7>,
    I32EnumAttrCase<"updates", 8>,
    I32EnumAttrCase<"found_inf", 9>,
    I32EnumAttrCase<"output", 10>
  ]> {
  let cppNamespace = "::mlir::mp";
  let genSpecializedAttr = 0;
}

//===----------------------------------------------------------------------===//
// Enums of pass and tool options (no attributes): their generated
// stringify/symbolize functions are the one spelling of every value, used by
// pass options, pipelines, mp-run and policy files (mp/Utils/EnumOptions.h).
//===----------------------------------------------------------------------===//

def MP_PolicyLevel : I32EnumAttr<"PolicyLevel",
    "how aggressively the painting lowers precision (names follow TF's AMP)", [
    I32EnumAttrCase<"Default", 0, "default">,
    I32EnumAttrCase<"TensorCoresOnly", 1, "tensor-cores-only">,
    I32EnumAttrCase<"TreatInferAsDeny", 2, "treat-infer-as-deny">,
    I32EnumAttrCase<"UnsafeForceAll", 3, "unsafe-force-all">,
    // Options only: keep the level the policy gives.
    I32EnumAttrCase<"FromPolicy", 4, "policy">
  ]> {
  let cppNamespace = "::mlir::mp";
  let genSpecializedAttr = 0;
}

def MP_LossScaleMode : I32EnumAttr<"LossScaleMode", "loss-scaling mode", [
    I32EnumAttrCase<"Auto", 0, "auto">,
    I32EnumAttrCase<"Dynamic", 1, "dynamic">,
    I32EnumAttrCase<"Static", 2, "static">,
    I32EnumAttrCase<"None", 3, "none">
  ]> {
  let cppNamespace = "::mlir::mp";
  let genSpecializedAttr = 0;
}

def MP_Optimizer : I32EnumAttr<"Optimizer", "optimizer of a training step", [
    I32EnumAttrCase<"SGD", 0, "sgd">,
    I32EnumAttrCase<"Momentum", 1, "momentum">,
    I32EnumAttrCase<"Adam", 2, "adam">,
    I32EnumAttrCase<"AdamW", 3, "adamw">
  ]> {
  let cppNamespace = "::mlir::mp";
  let genSpecializedAttr = 0;
}

def MP_AllReduceType : I32EnumAttr<"AllReduceType",
    "precision of the gradients a data-parallel step sends", [
    I32EnumAttrCase<"f32", 0>,
    I32EnumAttrCase<"bf16", 1>,
    I32EnumAttrCase<"f16", 2>
  ]> {
  let cppNamespace = "::mlir::mp";
  let genSpecializedAttr = 0;
}

#endif // MP_DIALECT_MP_IR_MPATTRS_TD
