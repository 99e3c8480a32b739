// RUN: mp-opt %s --pass-pipeline='builtin.module(mp-lower-to-cpu)' | FileCheck %s
// The input of mp-run after mp-amp-pipeline: f16 inputs, f32 accumulation,
// f16 elementwise work, softmax, a loop. Everything reaches the LLVM dialect;
// f16 arithmetic runs in f32; every function gets a C interface wrapper.

// CHECK-NOT: linalg.
// CHECK-NOT: tensor<
// CHECK-NOT: memref.alloc
// CHECK-NOT: unrealized_conversion_cast
// CHECK-LABEL: llvm.func @mixed(
// CHECK: llvm.fpext {{.*}} : f16 to f32
// CHECK: llvm.fmul {{.*}} : f32
// CHECK: llvm.fptrunc {{.*}} : f32 to f16
// CHECK: llvm.call @malloc
// CHECK-LABEL: llvm.func @_mlir_ciface_mixed(
func.func @mixed(%a: tensor<4x8xf16>, %b: tensor<8x4xf16>, %x: tensor<4x4xf32>) -> (tensor<4x4xf16>, tensor<4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %m = linalg.matmul ins(%a, %b : tensor<4x8xf16>, tensor<8x4xf16>) outs(%z : tensor<4x4xf32>) -> tensor<4x4xf32>
  %h = arith.truncf %m : tensor<4x4xf32> to tensor<4x4xf16>
  %t = math.tanh %h : tensor<4x4xf16>
  %s = linalg.softmax dimension(1) ins(%x : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %t, %s : tensor<4x4xf16>, tensor<4x4xf32>
}
