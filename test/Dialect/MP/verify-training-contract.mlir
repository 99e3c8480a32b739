// RUN: mp-opt %s --split-input-file --mp-verify-training-contract --verify-diagnostics | FileCheck %s

// A valid gradient function passes unchanged; a frozen parameter is a
// warning; functions without roles are not checked.
// CHECK-LABEL: func.func @grad
func.func @grad(%w: tensor<4x4xf32> {mp.param},
                // expected-warning @below {{argument #1 of @grad is a parameter without a gradient: training leaves it unchanged}}
                %frozen: tensor<4xf32> {mp.param},
                %x: tensor<2x4xf32> {mp.input}, %seed: tensor<f32> {mp.grad_seed})
    -> (tensor<f32> {mp.loss}, tensor<4x4xf32> {mp.grad_of = 0 : i64}, tensor<2x4xf32> {mp.output}) {
  %l = tensor.empty() : tensor<f32>
  return %l, %w, %x : tensor<f32>, tensor<4x4xf32>, tensor<2x4xf32>
}
// CHECK-LABEL: func.func @plain
func.func @plain(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
