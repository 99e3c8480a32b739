// RUN: mp-opt %s --split-input-file --allow-unregistered-dialect --mp-gpu-pair-ldmatrix | FileCheck %s
// RUN: mp-opt %S/Inputs/fragment-tiles.mlir --mp-gpu-tile-contractions --mp-gpu-async-copies --mp-gpu-map-forall-to-launch --mp-gpu-vector-to-mma --gpu-kernel-outlining --mp-gpu-pair-ldmatrix | FileCheck %s --check-prefix=GEMM

// Two loads of 2 tiles of one buffer whose indices differ by constants (8
// columns) are one load of 4 tiles: lanes 0-15 give the first's addresses,
// lanes 16-31 (half = lane / 16 = 1) those of lane - 16 (lane mod 16, thread
// x - 16) plus the differences. The loads' results are its registers 0-1
// and 2-3. A third such load has no partner and stays.
// CHECK-DAG: #[[ROWMAP:.*]] = affine_map<()[s0] -> (s0 mod 16)>
// CHECK-DAG: #[[COLMAP:.*]] = affine_map<()[s0, s1] -> ((s1 floordiv 16) * 8 + (s0 floordiv 32) * 32)>
// CHECK-DAG: #[[HALFMAP:.*]] = affine_map<(d0) -> (d0 floordiv 16)>
// CHECK-DAG: #[[LOWMAP:.*]] = affine_map<(d0) -> (d0 mod 16)>
// CHECK-DAG: #[[TXMAP:.*]] = affine_map<(d0, d1) -> (d0 - d1 * 16)>
// CHECK-DAG: #[[OFFSETMAP:.*]] = affine_map<(d0, d1) -> (d0 + d1 * 8)>
// CHECK-LABEL: gpu.func @pair
// CHECK: affine.apply #[[COLMAP]]
// CHECK-NEXT: %[[LANE:.*]] = gpu.lane_id
// CHECK-NEXT: %[[HALF:.*]] = affine.apply #[[HALFMAP]](%[[LANE]])
// CHECK-NEXT: %[[LOW:.*]] = affine.apply #[[LOWMAP]](%[[LANE]])
// CHECK-NEXT: %[[TX:.*]] = gpu.thread_id x
// CHECK-NEXT: %[[TXLOW:.*]] = affine.apply #[[TXMAP]](%[[TX]], %[[HALF]])
// CHECK-NEXT: %[[ROW:.*]] = affine.apply #[[ROWMAP]]()[%[[LOW]]]
// CHECK-NEXT: %[[COL0:.*]] = affine.apply #[[COLMAP]]()[%[[TXLOW]], %[[LOW]]]
// CHECK-NEXT: %[[COL:.*]] = affine.apply #[[OFFSETMAP]](%[[COL0]], %[[HALF]])
// CHECK: %[[X4:.*]] = nvgpu.ldmatrix %[[B:.*]][%[[ROW]], %[[COL]]] {numTiles = 4 : i32, transpose = true} : memref<32x64xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
// CHECK: %[[FIRST:.*]] = vector.shuffle %[[X4]], %[[X4]] [0, 1] : vector<4x2xf16>, vector<4x2xf16>
// CHECK: %[[SECOND:.*]] = vector.shuffle %[[X4]], %[[X4]] [2, 3] : vector<4x2xf16>, vector<4x2xf16>
// CHECK: %[[LAST:.*]] = nvgpu.ldmatrix %[[B]][%{{.*}}, %{{.*}}] {numTiles = 2 : i32, transpose = true}
// CHECK: "test.use"(%[[FIRST]], %[[SECOND]], %[[LAST]])
gpu.module @kernels {
  gpu.func @pair() workgroup(%b : memref<32x64xf16, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 64, 2, 1>} {
    %tx = gpu.thread_id x
    %lane = gpu.lane_id
    %row = affine.apply affine_map<()[s0] -> (s0 mod 16)>()[%lane]
    %col0 = affine.apply affine_map<()[s0, s1] -> ((s1 floordiv 16) * 8 + (s0 floordiv 32) * 32)>()[%tx, %lane]
    %f0 = nvgpu.ldmatrix %b[%row, %col0] {numTiles = 2 : i32, transpose = true} : memref<32x64xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
    %lane1 = gpu.lane_id
    %col8 = affine.apply affine_map<()[s0, s1] -> ((s1 floordiv 16) * 8 + (s0 floordiv 32) * 32 + 8)>()[%tx, %lane1]
    %f1 = nvgpu.ldmatrix %b[%row, %col8] {numTiles = 2 : i32, transpose = true} : memref<32x64xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
    %col16 = affine.apply affine_map<()[s0, s1] -> ((s1 floordiv 16) * 8 + (s0 floordiv 32) * 32 + 16)>()[%tx, %lane]
    %f2 = nvgpu.ldmatrix %b[%row, %col16] {numTiles = 2 : i32, transpose = true} : memref<32x64xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
    "test.use"(%f0, %f1, %f2) : (vector<2x2xf16>, vector<2x2xf16>, vector<2x2xf16>) -> ()
    gpu.return
  }
}

// -----

// Left alone: loads of different buffers, or with another transpose; an
// index that differs by a value (the loop's step) rather than a constant;
// an index read from memory (not the same in lane l and lane l - 16).
// CHECK-LABEL: gpu.func @apart
// CHECK-NOT: numTiles = 4
// CHECK-COUNT-7: numTiles = 2
// CHECK-NOT: numTiles = 4
gpu.module @kernels {
  gpu.func @apart(%idx: memref<32xindex>, %n: index)
      workgroup(%a : memref<32x64xf16, #gpu.address_space<workgroup>>,
                %b : memref<32x64xf16, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %lane = gpu.lane_id
    %fa = nvgpu.ldmatrix %a[%lane, %c0] {numTiles = 2 : i32, transpose = true} : memref<32x64xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
    %fb = nvgpu.ldmatrix %b[%lane, %c8] {numTiles = 2 : i32, transpose = true} : memref<32x64xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
    %fc = nvgpu.ldmatrix %a[%lane, %c8] {numTiles = 2 : i32, transpose = false} : memref<32x64xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
    "test.use"(%fa, %fb, %fc) : (vector<2x2xf16>, vector<2x2xf16>, vector<2x2xf16>) -> ()
    scf.for %k = %c0 to %n step %c8 {
      %f0 = nvgpu.ldmatrix %b[%lane, %k] {numTiles = 2 : i32, transpose = true} : memref<32x64xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
      %f1 = nvgpu.ldmatrix %b[%lane, %n] {numTiles = 2 : i32, transpose = true} : memref<32x64xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
      "test.use"(%f0, %f1) : (vector<2x2xf16>, vector<2x2xf16>) -> ()
    }
    %row = memref.load %idx[%lane] : memref<32xindex>
    %f2 = nvgpu.ldmatrix %b[%row, %c0] {numTiles = 2 : i32, transpose = true} : memref<32x64xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
    %f3 = nvgpu.ldmatrix %b[%row, %c8] {numTiles = 2 : i32, transpose = true} : memref<32x64xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
    "test.use"(%f2, %f3) : (vector<2x2xf16>, vector<2x2xf16>) -> ()
    gpu.return
  }
}

// -----

// A block whose x size is not a multiple of the warp (lane l - 16 is not
// thread x - 16) keeps its loads.
// CHECK-LABEL: gpu.func @narrow
// CHECK-COUNT-2: numTiles = 2
// CHECK-NOT: numTiles = 4
gpu.module @kernels {
  gpu.func @narrow() workgroup(%b : memref<32x64xf16, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 16, 4, 1>} {
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %lane = gpu.lane_id
    %f0 = nvgpu.ldmatrix %b[%lane, %c0] {numTiles = 2 : i32, transpose = true} : memref<32x64xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
    %f1 = nvgpu.ldmatrix %b[%lane, %c8] {numTiles = 2 : i32, transpose = true} : memref<32x64xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
    "test.use"(%f0, %f1) : (vector<2x2xf16>, vector<2x2xf16>) -> ()
    gpu.return
  }
}

// The default tiles' K step (32 x 32 warps, K step of 32): B's 8 fragments
// a step in 4 loads of 4 tiles, A's 4 loads as they were; no load of 2
// tiles is left.
// GEMM-LABEL: gpu.func @tiles_kernel
// GEMM: scf.for
// GEMM-COUNT-4: nvgpu.ldmatrix %{{.*}} {numTiles = 4 : i32, transpose = false}
// GEMM-COUNT-4: nvgpu.ldmatrix %{{.*}} {numTiles = 4 : i32, transpose = true}
// GEMM-NOT: numTiles = 2
