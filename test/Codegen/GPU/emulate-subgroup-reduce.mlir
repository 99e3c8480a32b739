// RUN: mp-opt %s --split-input-file --mp-gpu-emulate-subgroup-reduce --verify-diagnostics | FileCheck %s --implicit-check-not=gpu.subgroup_reduce

// The last level of a block reduction: every lane computes the warp's sum
// from the buffer, adjacent pairs first, as the XOR shuffles (offsets 1, 2,
// ..., 16) combine the lanes.
// CHECK-LABEL: func.func @warp_sum
// CHECK-SAME: (%[[P:.*]]: memref<32xf32>, %[[OUT:.*]]: memref<f32>)
// CHECK: scf.forall (%[[L:.*]]) in (32) {
// CHECK: %[[V0:.*]] = memref.load %[[P]][%c0{{[_0-9]*}}]
// CHECK: %[[V1:.*]] = memref.load %[[P]][%c1{{[_0-9]*}}]
// CHECK: %[[V2:.*]] = memref.load %[[P]][%c2{{[_0-9]*}}]
// CHECK: %[[V3:.*]] = memref.load %[[P]][%c3{{[_0-9]*}}]
// CHECK-COUNT-28: memref.load %[[P]][%c
// CHECK: %[[A01:.*]] = arith.addf %[[V0]], %[[V1]] : f32
// CHECK: %[[A23:.*]] = arith.addf %[[V2]], %[[V3]] : f32
// CHECK-COUNT-14: arith.addf
// CHECK: %[[A03:.*]] = arith.addf %[[A01]], %[[A23]] : f32
// CHECK-COUNT-13: arith.addf
// CHECK: %[[TOTAL:.*]] = arith.addf
// CHECK-NOT: arith.addf
// CHECK: scf.if
// CHECK: memref.store %[[TOTAL]], %[[OUT]][]
func.func @warp_sum(%p: memref<32xf32>, %out: memref<f32>) {
  %c0 = arith.constant 0 : index
  scf.forall (%l) in (32) {
    %v = memref.load %p[%l] : memref<32xf32>
    %r = gpu.subgroup_reduce add %v uniform : (f32) -> f32
    %first = arith.cmpi eq, %l, %c0 : index
    scf.if %first {
      memref.store %r, %out[] : memref<f32>
    }
  } {mapping = [#gpu.thread<x>]}
  return
}

// -----

// Lanes whose values do not come from a buffer cannot be emulated one at a
// time.
func.func @not_from_buffer(%out: memref<32xf32>) {
  scf.forall (%l) in (32) {
    %i = arith.index_cast %l : index to i32
    %v = arith.sitofp %i : i32 to f32
    // expected-error @below {{mp-gpu-emulate-subgroup-reduce: expected the value of lane l to be element l of a buffer, in an scf.forall over the 32 lanes of a warp}}
    %r = gpu.subgroup_reduce add %v uniform : (f32) -> f32
    memref.store %r, %out[%l] : memref<32xf32>
  } {mapping = [#gpu.thread<x>]}
  return
}

// -----

// A forall of 64 lanes is two warps.
func.func @two_warps(%p: memref<64xf32>, %out: memref<64xf32>) {
  scf.forall (%l) in (64) {
    %v = memref.load %p[%l] : memref<64xf32>
    // expected-error @below {{expected the value of lane l to be element l of a buffer}}
    %r = gpu.subgroup_reduce add %v uniform : (f32) -> f32
    memref.store %r, %out[%l] : memref<64xf32>
  } {mapping = [#gpu.thread<x>]}
  return
}
