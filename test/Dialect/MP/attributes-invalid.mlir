// RUN: mp-opt %s --split-input-file --verify-diagnostics

// expected-error @below {{'mp.override' must be a precision such as #mp.precision<f16>, got "f16"}}
func.func @bad_override() attributes {mp.override = "f16"} {
  return
}

// -----

// expected-error @below {{'mp.precision' must be a precision or an array of precisions, got 3 : i64}}
func.func @bad_precision() attributes {mp.precision = 3} {
  return
}

// -----

// expected-error @below {{unknown mp attribute 'mp.colour'}}
func.func @unknown() attributes {mp.colour = #mp.class<allow>} {
  return
}

// -----

// expected-error @below {{expected ::mlir::mp::Precision to be one of: f32, f16, bf16, f8e4m3, f8e5m2}}
// expected-error @below {{failed to parse MP_PrecisionAttr parameter 'value'}}
func.func @bad_enum() attributes {mp.override = #mp.precision<f64>} {
  return
}
