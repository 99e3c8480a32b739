// RUN: mp-opt %s --mp-protect-arguments | FileCheck %s

// Tensor arguments of public functions become read-only for bufferization;
// scalars and private functions are left alone.
// CHECK-LABEL: func.func @public(
// CHECK-SAME: %{{.*}}: tensor<4xf32> {bufferization.writable = false}, %{{.*}}: f32)
// CHECK-LABEL: func.func private @private(
// CHECK-SAME: %{{.*}}: tensor<4xf32>)
func.func @public(%x: tensor<4xf32>, %s: f32) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
func.func private @private(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
