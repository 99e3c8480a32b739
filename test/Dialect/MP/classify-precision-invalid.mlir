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
