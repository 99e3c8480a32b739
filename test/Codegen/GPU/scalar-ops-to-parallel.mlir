// RUN: mp-opt %s --mp-gpu-scalar-ops-to-parallel | FileCheck %s

// 0-d linalg ops on buffers each go into a one-iteration scf.parallel (a
// kernel after mp-gpu-map-parallel-loops); ops with loops, and ops already
// in a kernel or a parallel loop, stay.
// CHECK-LABEL: func.func @scalars
// CHECK-SAME: (%[[A:.*]]: memref<f32>, %[[B:.*]]: memref<f32>, %[[V:.*]]: memref<8xf32>)
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT: scf.parallel (%{{.*}}) = (%[[C0]]) to (%[[C1]]) step (%[[C1]]) {
// CHECK-NEXT: linalg.fill ins(%{{.*}} : f32) outs(%[[A]] : memref<f32>)
// CHECK-NEXT: scf.reduce
// CHECK: scf.parallel
// CHECK-NEXT: linalg.generic {{.*}} ins(%[[A]] : memref<f32>) outs(%[[B]] : memref<f32>)
// CHECK: scf.reduce
// CHECK-NOT: scf.parallel
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[V]] : memref<8xf32>)
// CHECK: gpu.launch
// CHECK-NEXT: linalg.fill ins(%{{.*}} : f32) outs(%[[B]] : memref<f32>)
func.func @scalars(%a: memref<f32>, %b: memref<f32>, %v: memref<8xf32>) {
  %one = arith.constant 1.0 : f32
  %c1 = arith.constant 1 : index
  linalg.fill ins(%one : f32) outs(%a : memref<f32>)
  linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []} ins(%a : memref<f32>) outs(%b : memref<f32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.addf %x, %x : f32
    linalg.yield %y : f32
  }
  linalg.fill ins(%one : f32) outs(%v : memref<8xf32>)
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    linalg.fill ins(%one : f32) outs(%b : memref<f32>)
    gpu.terminator
  }
  return
}
