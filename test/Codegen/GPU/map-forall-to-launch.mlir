// RUN: mp-opt %s --split-input-file --mp-gpu-map-forall-to-launch --canonicalize | FileCheck %s
// RUN: mp-opt %S/Inputs/map-forall-to-launch-errors.mlir --split-input-file --mp-gpu-map-forall-to-launch --verify-diagnostics

// Blocks of the tiled stage on the grid (x: 2 column tiles, y: 3 row tiles),
// 2x2 warps as 64x2 threads; warp ids from the thread ids. The tiles the
// blocks' loop carries (mp-gpu-tile-contractions) go on the launch.
// CHECK-LABEL: func.func @tiles
// CHECK: gpu.launch blocks(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %c2, %{{.*}} = %c3, %{{.*}} = %c1) threads(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %c64, %{{.*}} = %c2, %{{.*}} = %c1)
// CHECK-DAG: gpu.block_id x
// CHECK-DAG: gpu.block_id y
// CHECK-DAG: gpu.thread_id x
// CHECK-DAG: gpu.thread_id y
// CHECK: memref.store
// CHECK: gpu.terminator
// CHECK-NEXT: } {mp.gpu_tile = array<i64: 32, 64, 16, 32>}
// CHECK-NOT: scf.forall
func.func @tiles(%out: memref<96x128xf32>) {
  %one = arith.constant 1.0 : f32
  scf.forall (%i, %j) = (0, 0) to (96, 128) step (32, 64) {
    scf.forall (%wi, %wj) = (0, 0) to (32, 64) step (16, 32) {
      %r = arith.addi %i, %wi : index
      %c = arith.addi %j, %wj : index
      memref.store %one, %out[%r, %c] : memref<96x128xf32>
    } {mapping = [#gpu.warp<y>, #gpu.warp<x>]}
  } {mapping = [#gpu.block<y>, #gpu.block<x>], mp.gpu_tile = array<i64: 32, 64, 16, 32>}
  return
}

// -----

// One warp row (a 16-row tile): the single-iteration dimension is folded
// before distribution (upstream's distribution built an affine.apply before
// the value it uses for it); 2 warps along x are 64 threads.
// CHECK-LABEL: func.func @one_warp_row
// CHECK: gpu.launch blocks(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %c2, %{{.*}} = %c1, %{{.*}} = %c1) threads(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %c64, %{{.*}} = %c1, %{{.*}} = %c1)
// CHECK: memref.store
// CHECK-NOT: scf.forall
func.func @one_warp_row(%out: memref<16x128xf32>) {
  %one = arith.constant 1.0 : f32
  scf.forall (%i, %j) = (0, 0) to (16, 128) step (16, 64) {
    scf.forall (%wi, %wj) = (0, 0) to (16, 64) step (16, 32) {
      %r = arith.addi %i, %wi : index
      %c = arith.addi %j, %wj : index
      memref.store %one, %out[%r, %c] : memref<16x128xf32>
    } {mapping = [#gpu.warp<y>, #gpu.warp<x>]}
  } {mapping = [#gpu.block<y>, #gpu.block<x>]}
  return
}

// -----

// A block's workgroup buffer becomes a workgroup attribution of the launch
// (its dealloc goes: it lives as long as the block); every distributed forall
// is followed by a barrier, so the warps read what all threads copied and
// the next copy waits for the reads.
// CHECK-LABEL: func.func @staged
// CHECK: gpu.launch {{.*}} workgroup(%[[BUF:.*]] : memref<2x64xf32, #gpu.address_space<workgroup>>)
// CHECK: scf.for
// CHECK: memref.store %{{.*}}, %[[BUF]]
// CHECK-NEXT: gpu.barrier
// CHECK: memref.load %[[BUF]]
// CHECK: memref.store
// CHECK: gpu.barrier
// CHECK-NOT: memref.alloc
// CHECK-NOT: memref.dealloc
func.func @staged(%in: memref<4x2x64xf32>, %out: memref<2x64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.forall (%i) = (0) to (1) step (1) {
    %buf = memref.alloc() : memref<2x64xf32, #gpu.address_space<workgroup>>
    scf.for %k = %c0 to %c4 step %c1 {
      scf.forall (%ty, %tx) in (2, 64) {
        %v = memref.load %in[%k, %ty, %tx] : memref<4x2x64xf32>
        memref.store %v, %buf[%ty, %tx] : memref<2x64xf32, #gpu.address_space<workgroup>>
      } {mapping = [#gpu.thread<y>, #gpu.thread<x>]}
      scf.forall (%w) in (2) {
        %a = memref.load %buf[%w, %c0] : memref<2x64xf32, #gpu.address_space<workgroup>>
        memref.store %a, %out[%w, %k] : memref<2x64xf32>
      } {mapping = [#gpu.warp<x>]}
    }
    memref.dealloc %buf : memref<2x64xf32, #gpu.address_space<workgroup>>
  } {mapping = [#gpu.block<x>]}
  return
}

// -----

// How a reduction's blocks are distributed (mp-gpu-tile-reductions) goes on
// the launch too.
// CHECK-LABEL: func.func @reduction
// CHECK: gpu.launch
// CHECK: gpu.terminator
// CHECK-NEXT: } {mp.gpu_reduction = "warp"}
func.func @reduction(%out: memref<64xf32>) {
  %one = arith.constant 1.0 : f32
  scf.forall (%b) in (2) {
    scf.forall (%t) in (32) {
      %i = affine.apply affine_map<(d0, d1) -> (d0 * 32 + d1)>(%b, %t)
      memref.store %one, %out[%i] : memref<64xf32>
    } {mapping = [#gpu.thread<x>]}
  } {mapping = [#gpu.block<x>], mp.gpu_reduction = "warp"}
  return
}

// -----

// A blocks' forall to a dynamic size (a GEMM of dynamic rows): its blocks
// are ceil(rows / 32), at least 0 (the runtime launches no empty grid), the
// warps' forall in it static.
// CHECK-DAG: #[[BLOCKS:.*]] = affine_map<()[s0] -> (s0 ceildiv 32, 0)>
// CHECK-LABEL: func.func @dynamic_rows
// CHECK: %[[ROWS:.*]] = memref.dim %arg0, %c0
// CHECK: %[[Y:.*]] = affine.max #[[BLOCKS]]()[%[[ROWS]]]
// CHECK: gpu.launch blocks(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %c2, %{{.*}} = %[[Y]], %{{.*}} = %c1) threads(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %c64, %{{.*}} = %c2, %{{.*}} = %c1)
// CHECK-NOT: scf.forall
func.func @dynamic_rows(%out: memref<?x128xf32>) {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  %rows = memref.dim %out, %c0 : memref<?x128xf32>
  scf.forall (%i, %j) = (0, 0) to (%rows, 128) step (32, 64) {
    scf.forall (%wi, %wj) = (0, 0) to (32, 64) step (16, 32) {
      %r = arith.addi %i, %wi : index
      %c = arith.addi %j, %wj : index
      memref.store %one, %out[%r, %c] : memref<?x128xf32>
    } {mapping = [#gpu.warp<y>, #gpu.warp<x>]}
  } {mapping = [#gpu.block<y>, #gpu.block<x>]}
  return
}
