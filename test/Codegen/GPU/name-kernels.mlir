// RUN: mp-opt %s --mp-gpu-name-kernels | FileCheck %s
// RUN: mp-opt %s --mp-gpu-name-kernels --gpu-kernel-outlining | FileCheck %s --check-prefix=OUTLINED

// Each function's launches are named after it and their position; the
// outlined kernels and their modules take the names.
// CHECK-LABEL: func.func @step
// CHECK: gpu.launch {{.*}} module(@step_kernel_0) function(@step_kernel_0)
// CHECK: gpu.launch {{.*}} module(@step_kernel_1) function(@step_kernel_1)
// CHECK-LABEL: func.func @other
// CHECK: gpu.launch {{.*}} module(@other_kernel_0) function(@other_kernel_0)
// OUTLINED: gpu.launch_func @step_kernel_0::@step_kernel_0
// OUTLINED: gpu.launch_func @step_kernel_1::@step_kernel_1
// OUTLINED: gpu.module @step_kernel_0
// OUTLINED: gpu.func @step_kernel_0
// OUTLINED: gpu.module @step_kernel_1
// OUTLINED: gpu.launch_func @other_kernel_0::@other_kernel_0
// OUTLINED: gpu.module @other_kernel_0
func.func @step(%m: memref<4xf32>) {
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  gpu.launch blocks(%a, %b, %c) in (%x = %c1, %y = %c1, %z = %c1) threads(%d, %e, %g) in (%u = %c1, %v = %c1, %w = %c1) {
    memref.store %zero, %m[%d] : memref<4xf32>
    gpu.terminator
  }
  gpu.launch blocks(%a, %b, %c) in (%x = %c1, %y = %c1, %z = %c1) threads(%d, %e, %g) in (%u = %c1, %v = %c1, %w = %c1) {
    memref.store %zero, %m[%a] : memref<4xf32>
    gpu.terminator
  }
  return
}
func.func @other(%m: memref<4xf32>) {
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  gpu.launch blocks(%a, %b, %c) in (%x = %c1, %y = %c1, %z = %c1) threads(%d, %e, %g) in (%u = %c1, %v = %c1, %w = %c1) {
    memref.store %one, %m[%d] : memref<4xf32>
    gpu.terminator
  }
  return
}
