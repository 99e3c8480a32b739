// RUN: mp-opt %s --mp-gpu-copies-to-linalg | FileCheck %s --implicit-check-not=memref.copy

// Host copies (dense and strided) become linalg.copy; a kernel's own copy
// stays, as do unranked copies (no linalg form) and copies out of host
// globals (kernels cannot read them).
// CHECK-LABEL: func.func @copies
// CHECK: linalg.copy ins(%arg0 : memref<4x8xf32>) outs(%arg1 : memref<4x8xf32>)
// CHECK: %[[T:.*]] = memref.subview
// CHECK: linalg.copy ins(%[[T]] : memref<4x4xf32, strided<[8, 1]>>) outs(%arg2 : memref<4x4xf32>)
// CHECK: gpu.launch
// CHECK: memref.copy %arg0, %arg1
// CHECK: memref.copy %arg3, %arg4 : memref<*xf32> to memref<*xf32>
// CHECK: %[[G:.*]] = memref.get_global @table
// CHECK: %[[V:.*]] = memref.subview %[[G]]
// CHECK: memref.copy %[[V]], %arg2
memref.global "private" constant @table : memref<4x8xf32> = dense<1.0>
func.func @copies(%a: memref<4x8xf32>, %b: memref<4x8xf32>, %c: memref<4x4xf32>,
                  %u: memref<*xf32>, %v: memref<*xf32>) {
  memref.copy %a, %b : memref<4x8xf32> to memref<4x8xf32>
  %s = memref.subview %a[0, 0] [4, 4] [1, 1] : memref<4x8xf32> to memref<4x4xf32, strided<[8, 1]>>
  memref.copy %s, %c : memref<4x4xf32, strided<[8, 1]>> to memref<4x4xf32>
  %one = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %one, %y = %one, %z = %one)
             threads(%tx, %ty, %tz) in (%i = %one, %j = %one, %k = %one) {
    memref.copy %a, %b : memref<4x8xf32> to memref<4x8xf32>
    gpu.terminator
  }
  memref.copy %u, %v : memref<*xf32> to memref<*xf32>
  %g = memref.get_global @table : memref<4x8xf32>
  %gs = memref.subview %g[0, 0] [4, 4] [1, 1] : memref<4x8xf32> to memref<4x4xf32, strided<[8, 1]>>
  memref.copy %gs, %c : memref<4x4xf32, strided<[8, 1]>> to memref<4x4xf32>
  return
}
