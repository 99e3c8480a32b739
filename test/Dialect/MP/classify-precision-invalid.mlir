// RUN: mp-opt %s --split-input-file --verify-diagnostics --mp-classify-precision

// fp8 overrides are reserved for later stages.
func.func @fp8_override(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %e = tensor.empty() : tensor<8x8xf32>
  // expected-error @below {{mp.override with f8e4m3 is not supported yet; use f32, f16 or bf16}}
  %0 = linalg.matmul {mp.override = #mp.precision<f8e4m3>} ins(%a, %a : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

// A constant that overflows f16 stays f32 (and its users follow deny).
func.func @overflow(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-warning @below {{constant does not fit in f16 (values overflow to inf); it stays f32}}
  %c = arith.constant dense<[1.0, 2.0, 70000.0, 4.0]> : tensor<4xf32>
  %0 = arith.mulf %a, %c : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// The same override on an op that carries values through its regions.
func.func @fp8_override_loop(%a: tensor<8x8xf32>, %n: index) -> tensor<8x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @below {{mp.override with f8e4m3 is not supported yet; use f32, f16 or bf16}}
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%h = %a) -> (tensor<8x8xf32>) {
    scf.yield %h : tensor<8x8xf32>
  } {mp.override = #mp.precision<f8e4m3>}
  return %r : tensor<8x8xf32>
}

// -----

func.func @override_fixed_f32_types(%scale: tensor<f32>, %tracker: tensor<i32>, %inf: tensor<i1>) -> (tensor<f32>, tensor<i32>) {
  // expected-error @below {{'mp.override' asks for f16, but this op's operand and result types must stay f32}}
  %s, %t = mp.update_scale %scale, %tracker, %inf {mp.override = #mp.precision<f16>}
  return %s, %t : tensor<f32>, tensor<i32>
}

// -----

func.func private @callee(tensor<4xf32>) -> tensor<4xf32>
func.func @override_call(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @below {{'mp.override' cannot change a call's types: they are its callee's (set 'mp.signature_precision' on the callee)}}
  %r = func.call @callee(%x) {mp.override = #mp.precision<bf16>} : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// scf.forall is outside mp's model of carried values (its shared outputs
// would keep f32 while its results change: found by the pipeline fuzzer).
func.func @override_forall(%t: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error @below {{'mp.override' asks for f16, but this op's operand and result types must stay f32}}
  %r = scf.forall (%i) in (8) shared_outs(%o = %t) -> (tensor<8x8xf32>) {
    %s = tensor.extract_slice %t[%i, 0] [1, 8] [1, 1] : tensor<8x8xf32> to tensor<1x8xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %s into %o[%i, 0] [1, 8] [1, 1] : tensor<1x8xf32> into tensor<8x8xf32>
    }
  } {mp.override = #mp.precision<f16>}
  return %r : tensor<8x8xf32>
}
