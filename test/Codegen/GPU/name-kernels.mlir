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

// A function name that is no PTX identifier: its other characters become _
// and a leading digit gets one before it (NVPTX's printer aborted on the
// kernel @"x,y_kernel_0": "Symbol name with unsupported characters"). The
// whole pipeline then compiles it (the PTX entry, with format=isa).
// CHECK-LABEL: func.func @"x,y"
// CHECK: gpu.launch {{.*}} module(@x_y_kernel_0) function(@x_y_kernel_0)
// CHECK-LABEL: func.func @"1st.step"
// CHECK: gpu.launch {{.*}} module(@_1st_step_kernel_0) function(@_1st_step_kernel_0)
// RUN: mp-opt %S/Inputs/odd_names.mlir --mp-lower-to-gpu=format=isa | FileCheck %s --check-prefix=ISA
// ISA: .entry x_y_kernel_0
func.func @"x,y"(%m: memref<4xf32>) {
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  gpu.launch blocks(%a, %b, %c) in (%x = %c1, %y = %c1, %z = %c1) threads(%d, %e, %g) in (%u = %c1, %v = %c1, %w = %c1) {
    memref.store %zero, %m[%d] : memref<4xf32>
    gpu.terminator
  }
  return
}
func.func @"1st.step"(%m: memref<4xf32>) {
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  gpu.launch blocks(%a, %b, %c) in (%x = %c1, %y = %c1, %z = %c1) threads(%d, %e, %g) in (%u = %c1, %v = %c1, %w = %c1) {
    memref.store %zero, %m[%d] : memref<4xf32>
    gpu.terminator
  }
  return
}
