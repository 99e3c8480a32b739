// RUN: mp-opt %s --mp-strided-copies-to-linalg | FileCheck %s --implicit-check-not=memref.copy

// A copy into the interior of a padded buffer (what tensor.pad bufferizes
// to) and a copy into a strided insertion become linalg.copy; a copy between
// contiguous buffers (one memcpy) and an unranked copy stay.
// CHECK-LABEL: func.func @copies
// CHECK: %[[PAD:.*]] = memref.subview %arg1[0, 1, 1] [2, 28, 28] [1, 1, 1]
// CHECK: linalg.copy ins(%arg0 : memref<2x28x28xf32>) outs(%[[PAD]] : memref<2x28x28xf32, strided<[900, 30, 1], offset: 31>>)
// CHECK: %[[EVERY2:.*]] = memref.subview %arg2[0, 0] [4, 4] [1, 2]
// CHECK: linalg.copy ins(%arg3 : memref<4x4xf32>) outs(%[[EVERY2]] : memref<4x4xf32, strided<[8, 2]>>)
// CHECK: memref.copy %arg3, %arg4 : memref<4x4xf32> to memref<4x4xf32>
// CHECK: %[[ROWS:.*]] = memref.subview %arg2[1, 0] [2, 8] [1, 1]
// CHECK: memref.copy %[[ROWS]], %arg5 : memref<2x8xf32, strided<[8, 1], offset: 8>> to memref<2x8xf32>
// CHECK: memref.copy %arg6, %arg7 : memref<*xf32> to memref<*xf32>
func.func @copies(%x: memref<2x28x28xf32>, %padded: memref<2x30x30xf32>,
                  %big: memref<4x8xf32>, %small: memref<4x4xf32>,
                  %other: memref<4x4xf32>, %rows: memref<2x8xf32>,
                  %u: memref<*xf32>, %v: memref<*xf32>) {
  %interior = memref.subview %padded[0, 1, 1] [2, 28, 28] [1, 1, 1] : memref<2x30x30xf32> to memref<2x28x28xf32, strided<[900, 30, 1], offset: 31>>
  memref.copy %x, %interior : memref<2x28x28xf32> to memref<2x28x28xf32, strided<[900, 30, 1], offset: 31>>
  %every2 = memref.subview %big[0, 0] [4, 4] [1, 2] : memref<4x8xf32> to memref<4x4xf32, strided<[8, 2]>>
  memref.copy %small, %every2 : memref<4x4xf32> to memref<4x4xf32, strided<[8, 2]>>
  memref.copy %small, %other : memref<4x4xf32> to memref<4x4xf32>
  // Whole rows of a row-major buffer are one block: still memcpy.
  %two = memref.subview %big[1, 0] [2, 8] [1, 1] : memref<4x8xf32> to memref<2x8xf32, strided<[8, 1], offset: 8>>
  memref.copy %two, %rows : memref<2x8xf32, strided<[8, 1], offset: 8>> to memref<2x8xf32>
  memref.copy %u, %v : memref<*xf32> to memref<*xf32>
  return
}
