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

#endif // MP_DIALECT_MP_IR_MPATTRS_TD
