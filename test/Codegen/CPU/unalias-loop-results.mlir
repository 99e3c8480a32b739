// RUN: mp-opt %s --mp-unalias-loop-results | FileCheck %s --implicit-check-not=bufferization.alloc_tensor

// One tensor yielded as two results: the second yields a copy.
// CHECK-LABEL: func.func @twice
// CHECK: %[[F:.*]] = linalg.fill
// CHECK: %[[COPY:.*]] = bufferization.alloc_tensor() copy(%[[F]]) : tensor<8xf32>
// CHECK: scf.yield %[[F]], %[[COPY]] : tensor<8xf32>, tensor<8xf32>
func.func @twice(%a: tensor<8xf32>, %b: tensor<8xf32>, %s: f32) -> (tensor<8xf32>, tensor<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %l:2 = scf.for %i = %c0 to %c3 step %c1 iter_args(%x = %a, %y = %b) -> (tensor<8xf32>, tensor<8xf32>) {
    %e = tensor.empty() : tensor<8xf32>
    %f = linalg.fill ins(%s : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
    scf.yield %f, %f : tensor<8xf32>, tensor<8xf32>
  }
  return %l#0, %l#1 : tensor<8xf32>, tensor<8xf32>
}

// A view of a yielded tensor, and an iteration argument yielded twice: the
// later positions yield copies (of the view itself).
// CHECK-LABEL: func.func @views
// CHECK: %[[F:.*]] = linalg.fill
// CHECK: %[[V:.*]] = tensor.expand_shape %[[F]]
// CHECK: %[[VCOPY:.*]] = bufferization.alloc_tensor() copy(%[[V]]) : tensor<2x4xf32>
// CHECK: %[[ZCOPY:.*]] = bufferization.alloc_tensor() copy(%[[Z:.*]]) : tensor<8xf32>
// CHECK: scf.yield %[[F]], %[[VCOPY]], %[[Z]], %[[ZCOPY]] :
func.func @views(%a: tensor<8xf32>, %b: tensor<2x4xf32>, %s: f32) -> (tensor<8xf32>, tensor<2x4xf32>, tensor<8xf32>, tensor<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %l:4 = scf.for %i = %c0 to %c3 step %c1 iter_args(%x = %a, %y = %b, %z = %a, %w = %a) -> (tensor<8xf32>, tensor<2x4xf32>, tensor<8xf32>, tensor<8xf32>) {
    %e = tensor.empty() : tensor<8xf32>
    %f = linalg.fill ins(%s : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
    %v = tensor.expand_shape %f [[0, 1]] output_shape [2, 4] : tensor<8xf32> into tensor<2x4xf32>
    scf.yield %f, %v, %z, %z : tensor<8xf32>, tensor<2x4xf32>, tensor<8xf32>, tensor<8xf32>
  }
  return %l#0, %l#1, %l#2, %l#3 : tensor<8xf32>, tensor<2x4xf32>, tensor<8xf32>, tensor<8xf32>
}

// Different tensors, and values that are not tensors, yield as they are.
// CHECK-LABEL: func.func @distinct
// CHECK: scf.yield %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : tensor<8xf32>, tensor<8xf32>, f32, f32
func.func @distinct(%a: tensor<8xf32>, %b: tensor<8xf32>, %s: f32) -> (tensor<8xf32>, tensor<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %l:4 = scf.for %i = %c0 to %c3 step %c1 iter_args(%x = %a, %y = %b, %p = %s, %q = %s) -> (tensor<8xf32>, tensor<8xf32>, f32, f32) {
    %e = tensor.empty() : tensor<8xf32>
    %f = linalg.fill ins(%p : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
    %g = linalg.fill ins(%q : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
    scf.yield %f, %g, %p, %p : tensor<8xf32>, tensor<8xf32>, f32, f32
  }
  return %l#0, %l#1 : tensor<8xf32>, tensor<8xf32>
}
