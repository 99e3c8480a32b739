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

// -----

// Two transposes that write into one tensor.empty (torch-mlir's exports
// share it): each gets a tensor.empty of its own, so that each has a
// buffer that nothing else writes (which a GEMM can read through its
// operand copies). An empty with one linalg writer and another use (the
// return) is left as it is.
// CHECK-LABEL: func.func @shared_empty
// CHECK: %[[OTHER:.*]] = tensor.empty() : tensor<8xf32>
// CHECK-NEXT: %[[E1:.*]] = tensor.empty() : tensor<32x16xf16>
// CHECK-NEXT: %[[T1:.*]] = linalg.transpose ins(%{{.*}} : tensor<16x32xf16>) outs(%[[E1]] : tensor<32x16xf16>)
// CHECK-NEXT: %[[E2:.*]] = tensor.empty() : tensor<32x16xf16>
// CHECK-NEXT: %[[T2:.*]] = linalg.transpose ins(%{{.*}} : tensor<16x32xf16>) outs(%[[E2]] : tensor<32x16xf16>)
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[OTHER]] : tensor<8xf32>)
// CHECK-NOT: tensor.empty
// CHECK: return
func.func @shared_empty(%a: tensor<16x32xf16>, %b: tensor<16x32xf16>, %x: f32)
    -> (tensor<32x16xf16>, tensor<32x16xf16>, tensor<8xf32>, tensor<8xf32>) {
  %e = tensor.empty() : tensor<32x16xf16>
  %other = tensor.empty() : tensor<8xf32>
  %t1 = linalg.transpose ins(%a : tensor<16x32xf16>) outs(%e : tensor<32x16xf16>) permutation = [1, 0]
  %t2 = linalg.transpose ins(%b : tensor<16x32xf16>) outs(%e : tensor<32x16xf16>) permutation = [1, 0]
  %f = linalg.fill ins(%x : f32) outs(%other : tensor<8xf32>) -> tensor<8xf32>
  return %t1, %t2, %f, %other : tensor<32x16xf16>, tensor<32x16xf16>, tensor<8xf32>, tensor<8xf32>
}

// -----

// A GEMM's zero, the GEMM and the bias added to its result share one
// tensor.empty with a transpose: the bias add reads what the fill and the
// GEMM wrote there, so the three keep it (bufferization adds the bias in
// place); the transpose gets its own.
// CHECK-LABEL: func.func @linked_writers
// CHECK: %[[E:.*]] = tensor.empty() : tensor<16x16xf32>
// CHECK: %[[F:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E]] : tensor<16x16xf32>)
// CHECK: %[[M:.*]] = linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<16x16xf16>, tensor<16x16xf16>) outs(%[[F]] : tensor<16x16xf32>)
// CHECK: linalg.generic {{.*}} ins(%[[M]], %{{.*}} : tensor<16x16xf32>, tensor<16xf32>) outs(%[[E]] : tensor<16x16xf32>)
// CHECK: %[[OWN:.*]] = tensor.empty() : tensor<16x16xf32>
// CHECK-NEXT: linalg.transpose ins(%{{.*}} : tensor<16x16xf32>) outs(%[[OWN]] : tensor<16x16xf32>)
func.func @linked_writers(%a: tensor<16x16xf16>, %b: tensor<16x16xf16>, %bias: tensor<16xf32>, %x: tensor<16x16xf32>)
    -> (tensor<16x16xf32>, tensor<16x16xf32>) {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x16xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<16x16xf32>) -> tensor<16x16xf32>
  %m = linalg.matmul ins(%a, %b : tensor<16x16xf16>, tensor<16x16xf16>) outs(%f : tensor<16x16xf32>) -> tensor<16x16xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%m, %bias : tensor<16x16xf32>, tensor<16xf32>) outs(%e : tensor<16x16xf32>) {
  ^bb0(%in: f32, %c: f32, %out: f32):
    %s = arith.addf %in, %c : f32
    linalg.yield %s : f32
  } -> tensor<16x16xf32>
  %t = linalg.transpose ins(%x : tensor<16x16xf32>) outs(%e : tensor<16x16xf32>) permutation = [1, 0]
  return %y, %t : tensor<16x16xf32>, tensor<16x16xf32>
}

// -----

// A cast and the ReLU gradient that reads it share one tensor.empty
// (torch-mlir's export): the gradient reads no accumulation into it, so
// each gets its own, and the gradient may be a GEMM's epilogue without
// overwriting the cast that other ops read between the two.
// CHECK-LABEL: func.func @unlinked_writers
// CHECK: %[[E1:.*]] = tensor.empty() : tensor<16x16xf16>
// CHECK-NEXT: %[[C:.*]] = linalg.generic {{.*}} ins(%{{.*}} : tensor<16x16xf32>) outs(%[[E1]] : tensor<16x16xf16>)
// CHECK: %[[E2:.*]] = tensor.empty() : tensor<16x16xf16>
// CHECK-NEXT: linalg.generic {{.*}} ins(%[[C]], %{{.*}} : tensor<16x16xf16>, tensor<16x16xf32>) outs(%[[E2]] : tensor<16x16xf16>)
func.func @unlinked_writers(%x: tensor<16x16xf32>, %g: tensor<16x16xf32>)
    -> (tensor<16x16xf16>, tensor<16x16xf16>) {
  %e = tensor.empty() : tensor<16x16xf16>
  %c = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<16x16xf32>) outs(%e : tensor<16x16xf16>) {
  ^bb0(%in: f32, %out: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  } -> tensor<16x16xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c, %g : tensor<16x16xf16>, tensor<16x16xf32>) outs(%e : tensor<16x16xf16>) {
  ^bb0(%a: f16, %b: f32, %out: f16):
    %zero = arith.constant 0.0 : f16
    %pos = arith.cmpf ogt, %a, %zero : f16
    %t = arith.truncf %b : f32 to f16
    %s = arith.select %pos, %t, %zero : f16
    linalg.yield %s : f16
  } -> tensor<16x16xf16>
  return %c, %r : tensor<16x16xf16>, tensor<16x16xf16>
}
