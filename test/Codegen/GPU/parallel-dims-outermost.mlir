// RUN: mp-opt %s --split-input-file --mp-gpu-parallel-dims-outermost | FileCheck %s

// A bias gradient: the sum over batch and tokens (dimensions 0 and 1) of
// each of 32 features. The feature dimension comes first, the reduction
// dimensions follow in their order, so each thread sums in the same order
// as before.
// CHECK-DAG: #[[IN:.*]] = affine_map<(d0, d1, d2) -> (d1, d2, d0)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2) -> (d0)>
// CHECK-LABEL: func.func @bias
// CHECK: linalg.generic {indexing_maps = [#[[IN]], #[[OUT]]], iterator_types = ["parallel", "reduction", "reduction"]} ins(%arg0 : memref<64x28x32xf32>) outs(%arg1 : memref<32xf32>)
// CHECK: arith.addf
func.func @bias(%x: memref<64x28x32xf32>, %out: memref<32xf32>) {
  linalg.reduce ins(%x : memref<64x28x32xf32>) outs(%out : memref<32xf32>) dimensions = [0, 1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return
}

// -----

// Parallel dimensions first already (a row sum), ops on tensors, and ops in
// kernels: unchanged.
// CHECK-LABEL: func.func @unchanged
// CHECK: linalg.reduce ins(%arg0 : memref<8x16xf32>) outs(%arg1 : memref<8xf32>) dimensions = [1]
// CHECK: linalg.reduce ins(%arg2 : tensor<8x16xf32>) outs(%arg3 : tensor<16xf32>) dimensions = [0]
func.func @unchanged(%x: memref<8x16xf32>, %rows: memref<8xf32>,
                     %t: tensor<8x16xf32>, %cols: tensor<16xf32>) -> tensor<16xf32> {
  linalg.reduce ins(%x : memref<8x16xf32>) outs(%rows : memref<8xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  %r = linalg.reduce ins(%t : tensor<8x16xf32>) outs(%cols : tensor<16xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<16xf32>
}
