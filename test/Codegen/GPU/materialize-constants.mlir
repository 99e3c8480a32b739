// RUN: mp-opt %s --split-input-file --mp-gpu-materialize-constants | FileCheck %s

// Splat tensor constants (here the zero of a loss-scale step and a bias)
// become fills; scalar constants stay.
// CHECK-LABEL: func.func @splats
// CHECK-NOT: dense
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f16
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-DAG: %[[E0:.*]] = tensor.empty() : tensor<f16>
// CHECK-DAG: %[[F0:.*]] = linalg.fill ins(%[[ZERO]] : f16) outs(%[[E0]] : tensor<f16>) -> tensor<f16>
// CHECK-DAG: %[[E1:.*]] = tensor.empty() : tensor<4x8xf32>
// CHECK-DAG: %[[F1:.*]] = linalg.fill ins(%[[ONE]] : f32) outs(%[[E1]] : tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK: return %[[F0]], %[[F1]]
func.func @splats() -> (tensor<f16>, tensor<4x8xf32>) {
  %z = arith.constant dense<0.0> : tensor<f16>
  %o = arith.constant dense<1.0> : tensor<4x8xf32>
  return %z, %o : tensor<f16>, tensor<4x8xf32>
}

// -----

// Other tensor constants are copied into a new tensor (the host copies the
// global into a buffer kernels can read); every use reads the copy.
// CHECK-LABEL: func.func @table
// CHECK: %[[T:.*]] = arith.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
// CHECK: %[[C:.*]] = bufferization.alloc_tensor() copy(%[[T]]) : tensor<2xf32>
// CHECK: %[[S:.*]] = arith.addf %[[C]], %[[C]] : tensor<2xf32>
// CHECK: return %[[S]], %[[C]]
func.func @table() -> (tensor<2xf32>, tensor<2xf32>) {
  %t = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %s = arith.addf %t, %t : tensor<2xf32>
  return %s, %t : tensor<2xf32>, tensor<2xf32>
}

// -----

// A zero that two GEMMs accumulate into (torch-mlir's exports share it):
// each GEMM gets a fill of its own, just before it, so that each one folds
// its fill instead of reading a copy of a shared buffer. A read of the fill
// (the add) keeps the shared one.
// CHECK-LABEL: func.func @shared_zero
// CHECK: %[[E:.*]] = tensor.empty() : tensor<16x16xf32>
// CHECK: %[[F:.*]] = linalg.fill ins(%[[Z:.*]] : f32) outs(%[[E]] : tensor<16x16xf32>)
// CHECK: %[[E1:.*]] = tensor.empty() : tensor<16x16xf32>
// CHECK-NEXT: %[[F1:.*]] = linalg.fill ins(%[[Z]] : f32) outs(%[[E1]] : tensor<16x16xf32>)
// CHECK-NEXT: %[[M1:.*]] = linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<16x16xf16>, tensor<16x16xf16>) outs(%[[F1]] : tensor<16x16xf32>)
// CHECK: %[[E2:.*]] = tensor.empty() : tensor<16x16xf32>
// CHECK-NEXT: %[[F2:.*]] = linalg.fill ins(%[[Z]] : f32) outs(%[[E2]] : tensor<16x16xf32>)
// CHECK-NEXT: %[[M2:.*]] = linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<16x16xf16>, tensor<16x16xf16>) outs(%[[F2]] : tensor<16x16xf32>)
// CHECK: arith.addf %[[M2]], %[[F]]
func.func @shared_zero(%a: tensor<16x16xf16>, %b: tensor<16x16xf16>)
    -> (tensor<16x16xf32>, tensor<16x16xf32>) {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x16xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<16x16xf32>) -> tensor<16x16xf32>
  %m1 = linalg.matmul ins(%a, %b : tensor<16x16xf16>, tensor<16x16xf16>) outs(%f : tensor<16x16xf32>) -> tensor<16x16xf32>
  %m2 = linalg.matmul ins(%b, %a : tensor<16x16xf16>, tensor<16x16xf16>) outs(%f : tensor<16x16xf32>) -> tensor<16x16xf32>
  %s = arith.addf %m2, %f : tensor<16x16xf32>
  return %m1, %s : tensor<16x16xf32>, tensor<16x16xf32>
}
