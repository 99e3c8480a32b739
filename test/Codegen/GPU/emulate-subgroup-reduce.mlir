// RUN: mp-opt %s --split-input-file --mp-gpu-emulate-subgroup-reduce --verify-diagnostics --mlir-print-local-scope | FileCheck %s --implicit-check-not=gpu.subgroup_reduce

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
    // expected-error @below {{mp-gpu-emulate-subgroup-reduce: expected the value of thread t to be element t of a buffer, in an scf.forall over the threads of whole warps}}
    %r = gpu.subgroup_reduce add %v uniform : (f32) -> f32
    memref.store %r, %out[%l] : memref<32xf32>
  } {mapping = [#gpu.thread<x>]}
  return
}

// -----

// A forall of 64 threads is two warps (the warp reductions of
// mp-gpu-tile-reductions): each thread reduces the 32 elements of its warp,
// 0-31 or 32-63.
// CHECK-LABEL: func.func @two_warps
// CHECK-SAME: (%[[P:.*]]: memref<64xf32>, %[[OUT:.*]]: memref<64xf32>)
// CHECK: scf.forall (%[[T:.*]]) in (64) {
// CHECK: %[[I0:.*]] = affine.apply affine_map<(d0) -> ((d0 floordiv 32) * 32)>(%[[T]])
// CHECK: %[[V0:.*]] = memref.load %[[P]][%[[I0]]]
// CHECK: %[[I1:.*]] = affine.apply affine_map<(d0) -> ((d0 floordiv 32) * 32 + 1)>(%[[T]])
// CHECK: %[[V1:.*]] = memref.load %[[P]][%[[I1]]]
// CHECK-COUNT-29: memref.load %[[P]]
// CHECK: %[[I31:.*]] = affine.apply affine_map<(d0) -> ((d0 floordiv 32) * 32 + 31)>(%[[T]])
// CHECK: memref.load %[[P]][%[[I31]]]
// CHECK: arith.addf %[[V0]], %[[V1]] : f32
// CHECK-COUNT-30: arith.addf
// CHECK-NOT: arith.addf
// CHECK: memref.store
func.func @two_warps(%p: memref<64xf32>, %out: memref<64xf32>) {
  scf.forall (%l) in (64) {
    %v = memref.load %p[%l] : memref<64xf32>
    %r = gpu.subgroup_reduce add %v uniform : (f32) -> f32
    memref.store %r, %out[%l] : memref<64xf32>
  } {mapping = [#gpu.thread<x>]}
  return
}

// -----

// 48 threads are not whole warps.
func.func @partial_warp(%p: memref<48xf32>, %out: memref<48xf32>) {
  scf.forall (%l) in (48) {
    %v = memref.load %p[%l] : memref<48xf32>
    // expected-error @below {{expected the value of thread t to be element t of a buffer, in an scf.forall over the threads of whole warps}}
    %r = gpu.subgroup_reduce add %v uniform : (f32) -> f32
    memref.store %r, %out[%l] : memref<48xf32>
  } {mapping = [#gpu.thread<x>]}
  return
}
