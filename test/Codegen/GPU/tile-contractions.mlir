// RUN: mp-opt %s --split-input-file --mp-gpu-tile-contractions=stages=1 | FileCheck %s
// RUN: mp-opt %s --split-input-file --mp-gpu-tile-contractions='tile-m=32 tile-n=32 warp-m=16 warp-n=16' | FileCheck %s --check-prefix=SMALL
// RUN: mp-opt %s --split-input-file --mp-gpu-tile-contractions='tile-m=16 tile-n=8 warp-m=16 warp-n=8' | FileCheck %s --check-prefix=EDGE
// RUN: mp-opt %s --split-input-file --mp-gpu-tile-contractions='tile-m=64 tile-n=32 warp-m=32 warp-n=32' | FileCheck %s --check-prefix=TWO
// RUN: mp-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(mp-gpu-tile-contractions))' | FileCheck %s --check-prefix=NESTED
// RUN: mp-opt %s --split-input-file --mp-gpu-tile-contractions | FileCheck %s --check-prefix=DOUBLE
// RUN: mp-opt %s --split-input-file --mp-gpu-tile-contractions='stages=1 tile-k=64' | FileCheck %s --check-prefix=K64
// RUN: mp-opt %s --split-input-file --mp-gpu-tile-contractions='stages=1 tile-k=16' | FileCheck %s --check-prefix=K16
// RUN: not mp-opt %s --mp-gpu-tile-contractions='warp-m=24' 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not mp-opt %s --mp-gpu-tile-contractions='tile-k=48' 2>&1 | FileCheck %s --check-prefix=BAD-K

// BAD: error: mp-gpu-tile-contractions: tile-m=64 tile-n=64 warp-m=24 warp-n=32 is invalid: warp-m must be a positive multiple of 16 and warp-n of 8, dividing tile-m and tile-n
// BAD-K: error: mp-gpu-tile-contractions: tile-k=48 is invalid: expected 16, 32 or 64 (K per trip of a Tensor Core GEMM's loop)

// An f16 matmul whose sizes the tiles divide: blocks of 64x64 (2x1 of them),
// K in steps of 32; on each step the block's 128 threads (2 x 64) copy the
// 64x32 panel of A and the 32x64 panel of B into workgroup buffers, 16 bytes
// at a time (2 chunks each), then 2x2 warps of 32x32 compute on the copies,
// each step 2x4x2 m16n8k16 contracts.
// CHECK-LABEL: func.func @matmul
// CHECK: scf.forall (%{{.*}}, %{{.*}}) = (0, 0) to (128, 64) step (64, 64)
// CHECK: %[[A:.*]] = memref.alloc() : memref<64x32xf16, #gpu.address_space<workgroup>>
// CHECK: %[[B:.*]] = memref.alloc() : memref<32x64xf16, #gpu.address_space<workgroup>>
// CHECK: scf.for %{{.*}} = %c0 to %c96 step %c32
// CHECK: scf.forall (%{{.*}}, %{{.*}}) in (2, 64)
// CHECK-COUNT-2: vector.load %arg0[{{.*}}] {alignment = 16 : i64} : memref<128x96xf16>, vector<8xf16>
// CHECK: } {mapping = [#gpu.thread<y>, #gpu.thread<x>]}
// CHECK: scf.forall (%{{.*}}, %{{.*}}) in (2, 64)
// CHECK-COUNT-2: vector.store {{.*}}, %[[B]][{{.*}}] {alignment = 16 : i64} : memref<32x64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
// CHECK: } {mapping = [#gpu.thread<y>, #gpu.thread<x>]}
// CHECK: scf.forall (%{{.*}}, %{{.*}}) = (0, 0) to (64, 64) step (32, 32)
// CHECK: memref.subview %[[A]]
// CHECK-COUNT-16: vector.contract {{.*}} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
// CHECK: } {mapping = [#gpu.warp<y>, #gpu.warp<x>]}
// CHECK-DAG: memref.dealloc %[[A]] :
// CHECK-DAG: memref.dealloc %[[B]] :
// CHECK: } {mapping = [#gpu.block<y>, #gpu.block<x>], mp.gpu_tile = array<i64: 64, 64, 32, 32>}
// CHECK-NOT: linalg.matmul
// By default (stages=2) the panels, copied unchanged 16 bytes at a
// time over 3 K steps, are staged in two buffers each: the first step's
// copied into slot 0 before the loop ("ahead"), each trip copying the next
// step's (the last one's again on the last trip) into the other slot
// ("prefetch", for mp-gpu-async-copies) before the warps compute on this
// trip's slot. (async-copies.mlir has three stages.)
// DOUBLE-DAG: #[[NEXT:.*]] = affine_map<(d0) -> (d0 + 32, 64)>
// DOUBLE-DAG: #[[OTHER:.*]] = affine_map<(d0) -> (d0 floordiv 32 - ((d0 floordiv 32 + 1) floordiv 2) * 2 + 1)>
// DOUBLE-DAG: #[[THIS:.*]] = affine_map<(d0) -> ((d0 floordiv 32) mod 2)>
// DOUBLE-LABEL: func.func @matmul
// DOUBLE: %[[A:.*]] = memref.alloc() : memref<2x64x32xf16, #gpu.address_space<workgroup>>
// DOUBLE: %[[A0:.*]] = memref.subview %[[A]][0, 0, 0] [1, 64, 32] [1, 1, 1]
// DOUBLE: %[[B:.*]] = memref.alloc() : memref<2x32x64xf16, #gpu.address_space<workgroup>>
// DOUBLE: scf.forall (%{{.*}}, %{{.*}}) in (2, 64)
// DOUBLE-COUNT-2: vector.store %{{.*}}, %[[A0]][{{.*}}] {alignment = 16 : i64, mp.gpu_copy = "ahead"}
// DOUBLE: scf.for %[[K:.*]] = %c0 to %c96 step %c32
// DOUBLE: %[[KN:.*]] = affine.min #[[NEXT]](%[[K]])
// DOUBLE: %[[SN:.*]] = affine.apply #[[OTHER]](%[[K]])
// DOUBLE: %[[AN:.*]] = memref.subview %[[A]][%[[SN]], 0, 0] [1, 64, 32] [1, 1, 1]
// DOUBLE: scf.forall (%{{.*}}, %{{.*}}) in (2, 64)
// DOUBLE: vector.load %arg0[%{{.*}}, %{{.*}}]
// DOUBLE: vector.store %{{.*}}, %[[AN]][{{.*}}] {alignment = 16 : i64, mp.gpu_copy = "prefetch"}
// DOUBLE: %[[S:.*]] = affine.apply #[[THIS]](%[[K]])
// DOUBLE: %[[AK:.*]] = memref.subview %[[A]][%[[S]], 0, 0] [1, 64, 32] [1, 1, 1]
// DOUBLE: mp.gpu_copy = "prefetch"
// DOUBLE: scf.forall (%{{.*}}, %{{.*}}) = (0, 0) to (64, 64) step (32, 32)
// DOUBLE: memref.subview %[[AK]]
// DOUBLE-COUNT-16: vector.contract
// DOUBLE: memref.dealloc %[[A]]
// SMALL-LABEL: func.func @matmul
// SMALL: scf.forall (%{{.*}}, %{{.*}}) = (0, 0) to (128, 64) step (32, 32)
// SMALL: scf.forall (%{{.*}}, %{{.*}}) in (2, 64)
// SMALL: scf.forall (%{{.*}}, %{{.*}}) = (0, 0) to (32, 32) step (16, 16)
// SMALL-COUNT-4: vector.contract {{.*}} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
// SMALL-NOT: vector.contract
// SMALL: {mapping = [#gpu.warp<y>, #gpu.warp<x>]}
// tile-k=64: 64 does not divide K = 96, so the step is halved to 32; with
// tile-k=16, steps of 16 and panels of 64 x 16 and 16 x 64.
// K64-LABEL: func.func @matmul
// K64: memref.alloc() : memref<64x32xf16, #gpu.address_space<workgroup>>
// K64: scf.for %{{.*}} = %c0 to %c96 step %c32
// K16-LABEL: func.func @matmul
// K16: memref.alloc() : memref<64x16xf16, #gpu.address_space<workgroup>>
// K16: memref.alloc() : memref<16x64xf16, #gpu.address_space<workgroup>>
// K16: scf.for %{{.*}} = %c0 to %c96 step %c16
// K16-COUNT-8: vector.contract {{.*}} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
// K16-NOT: vector.contract
// K16: {mapping = [#gpu.warp<y>, #gpu.warp<x>]}
func.func @matmul(%a: memref<128x96xf16>, %b: memref<96x64xf16>, %c: memref<128x64xf32>) {
  linalg.matmul ins(%a, %b : memref<128x96xf16>, memref<96x64xf16>) outs(%c : memref<128x64xf32>)
  return
}

// -----

// Batches go on the grid's z.
// CHECK-LABEL: func.func @batch
// CHECK: scf.forall (%{{.*}}, %{{.*}}, %{{.*}}) = (0, 0, 0) to (3, 64, 64) step (1, 64, 64)
// CHECK: memref.alloc() : memref<1x64x32xf16, #gpu.address_space<workgroup>>
// CHECK-COUNT-16: vector.contract {{.*}} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
// CHECK: {mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]{{.*}}}
func.func @batch(%a: memref<3x64x32xf16>, %b: memref<3x32x64xf16>, %c: memref<3x64x64xf32>) {
  linalg.batch_matmul ins(%a, %b : memref<3x64x32xf16>, memref<3x32x64xf16>) outs(%c : memref<3x64x64xf32>)
  return
}

// -----

// Left to the parallel-loop path: f16 times bf16 (mma.sync takes one
// type), an f16 accumulator, tensors, a batch that is not the outermost
// dimension of the result (its tiles would not be rows x columns).
// CHECK-LABEL: func.func @left_alone
// CHECK-COUNT-3: linalg.matmul
// CHECK: linalg.generic
// CHECK-NOT: vector.contract
func.func @left_alone(%abf: memref<64x64xbf16>, %a: memref<64x64xf16>, %c: memref<64x64xf32>, %c16: memref<64x64xf16>, %t: tensor<64x64xf16>, %tc: tensor<64x64xf32>, %ba: memref<3x20x16xf16>, %bb: memref<3x12x16xf16>, %bc: memref<20x3x12xf32>) -> tensor<64x64xf32> {
  linalg.matmul ins(%abf, %a : memref<64x64xbf16>, memref<64x64xf16>) outs(%c : memref<64x64xf32>)
  linalg.matmul ins(%a, %a : memref<64x64xf16>, memref<64x64xf16>) outs(%c16 : memref<64x64xf16>)
  %r = linalg.matmul ins(%t, %t : tensor<64x64xf16>, tensor<64x64xf16>) outs(%tc : tensor<64x64xf32>) -> tensor<64x64xf32>
  linalg.generic {indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (m, b, n)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%ba, %bb : memref<3x20x16xf16>, memref<3x12x16xf16>) outs(%bc : memref<20x3x12xf32>) {
  ^bb0(%x: f16, %y: f16, %o: f32):
    %ex = arith.extf %x : f16 to f32
    %ey = arith.extf %y : f16 to f32
    %p = arith.mulf %ex, %ey : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return %r : tensor<64x64xf32>
}

// -----

// Sizes the tiles do not divide (37x61x29 in one 64x64 block, K in one
// masked step of 32), with rows of odd sizes: the tiles of A and B are
// copied element by element,
// rows and columns checked against the operands' sizes, zeros outside; C's
// tile is staged too: copied in (zeros outside C) before the K loop and its
// part inside C copied back after it.
// With tile-k=64 a K of 29 (no multiple of 16) takes one masked step of
// 32: the step is at most K rounded up to 16.
// K64-LABEL: func.func @odd
// K64: scf.for %{{.*}} = %c0 to %c29 step %c32
// CHECK-LABEL: func.func @odd
// CHECK: scf.forall (%{{.*}}, %{{.*}}) = (0, 0) to (37, 61) step (64, 64)
// CHECK: %[[CT:.*]] = memref.alloc() : memref<64x64xf32, #gpu.address_space<workgroup>>
// CHECK: scf.forall (%{{.*}}, %{{.*}}) in (2, 64)
// CHECK: %[[IN:.*]] = arith.andi
// CHECK: %[[V:.*]] = scf.if %[[IN]] -> (f32)
// CHECK: memref.load %arg2[{{.*}}] : memref<37x61xf32>
// CHECK: } else {
// CHECK: scf.yield %{{.*}} : f32
// CHECK: memref.store %[[V]], %[[CT]]
// CHECK: scf.for
// CHECK: scf.forall (%{{.*}}, %{{.*}}) in (2, 64)
// CHECK: scf.if {{.*}} -> (f16)
// CHECK: scf.forall (%{{.*}}, %{{.*}}) = (0, 0) to (64, 64) step (32, 32)
// CHECK-COUNT-16: vector.contract
// CHECK: } {mapping = [#gpu.warp<y>, #gpu.warp<x>]}
// CHECK: scf.forall (%{{.*}}, %{{.*}}) in (2, 64)
// CHECK: scf.if
// CHECK: memref.load %[[CT]]
// CHECK: memref.store %{{.*}}, %arg2[%{{.*}}, %{{.*}}] : memref<37x61xf32>
// CHECK: memref.dealloc %[[CT]]
func.func @odd(%a: memref<37x29xf16>, %b: memref<29x61xf16>, %c: memref<37x61xf32>) {
  linalg.matmul ins(%a, %b : memref<37x29xf16>, memref<29x61xf16>) outs(%c : memref<37x61xf32>)
  return
}

// -----

// Masked tiles whose operands' rows are a multiple of the copy's width
// (37 rows of 32 in A, 24 columns in B and C): each chunk of 16 bytes is
// wholly inside or wholly outside its operand, so the copies move 16-byte
// vectors under one bounds check each (zeros outside), C's in and out.
// CHECK-LABEL: func.func @odd_rows
// CHECK: scf.forall (%{{.*}}, %{{.*}}) in (2, 64)
// CHECK: scf.if %{{.*}} -> (vector<4xf32>)
// CHECK: vector.load %arg2[{{.*}}] {alignment = 16 : i64} : memref<37x24xf32>, vector<4xf32>
// CHECK: } else {
// CHECK: scf.yield %{{.*}} : vector<4xf32>
// CHECK: scf.for
// CHECK: scf.if %{{.*}} -> (vector<8xf16>)
// CHECK: vector.load %arg0[{{.*}}] {alignment = 16 : i64} : memref<37x32xf16>, vector<8xf16>
// CHECK: scf.if %{{.*}} -> (vector<8xf16>)
// CHECK: vector.load %arg1[{{.*}}] {alignment = 16 : i64} : memref<32x24xf16>, vector<8xf16>
// CHECK: vector.contract
// CHECK: scf.forall (%{{.*}}, %{{.*}}) in (2, 64)
// CHECK: scf.if
// CHECK: vector.store %{{.*}}, %arg2[{{.*}}] {alignment = 16 : i64} : memref<37x24xf32>, vector<4xf32>
func.func @odd_rows(%a: memref<37x32xf16>, %b: memref<32x24xf16>, %c: memref<37x24xf32>) {
  linalg.matmul ins(%a, %b : memref<37x32xf16>, memref<32x24xf16>) outs(%c : memref<37x24xf32>)
  return
}

// -----

// A contraction generic (A x B^T, as torch-mlir emits linear layers) whose
// body is acc + ext(a) * ext(b) is tiled as a linalg.contract with the same
// maps: B's transposed read feeds the same m16n8k16 contracts. A generic that
// rounds the product to f16 before accumulating is not a Tensor Core
// contraction and stays.
// CHECK-LABEL: func.func @generic_abt
// CHECK: scf.forall
// CHECK: memref.alloc() : memref<64x32xf16, #gpu.address_space<workgroup>>
// CHECK: memref.alloc() : memref<64x32xf16, #gpu.address_space<workgroup>>
// CHECK-COUNT-16: vector.contract {{.*}} : vector<16x16xf16>, vector<8x16xf16> into vector<16x8xf32>
// CHECK: linalg.generic
// CHECK: arith.mulf {{.*}} : f16
// tile-k=64 divides K = 128: 2 trips on panels of 64 x 64 (128-byte rows),
// each 2 x 4 x 4 contracts per warp.
// K64-LABEL: func.func @generic_abt
// K64: memref.alloc() : memref<64x64xf16, #gpu.address_space<workgroup>>
// K64: memref.alloc() : memref<64x64xf16, #gpu.address_space<workgroup>>
// K64: scf.for %{{.*}} = %c0 to %c128 step %c64
// K64-COUNT-32: vector.contract {{.*}} : vector<16x16xf16>, vector<8x16xf16> into vector<16x8xf32>
// K64-NOT: vector.contract {{.*}} into vector<16x8xf32>
// K64: linalg.generic
func.func @generic_abt(%x: memref<64x128xf16>, %w: memref<64x128xf16>, %c: memref<64x64xf32>) {
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %w : memref<64x128xf16>, memref<64x128xf16>) outs(%c : memref<64x64xf32>) {
  ^bb0(%xi: f16, %wi: f16, %acc: f32):
    %a = arith.extf %xi : f16 to f32
    %b = arith.extf %wi : f16 to f32
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %w : memref<64x128xf16>, memref<64x128xf16>) outs(%c : memref<64x64xf32>) {
  ^bb0(%xi: f16, %wi: f16, %acc: f32):
    %p = arith.mulf %xi, %wi : f16
    %e = arith.extf %p : f16 to f32
    %s = arith.addf %acc, %e : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Copies of panels: rows of A that are not 16-byte aligned (a stride of 17)
// are copied one element at a time (8 per thread of the block's warp); the
// 16 chunks of B's panel leave half of the 32 threads idle, under a guard.
// EDGE-LABEL: func.func @unaligned
// EDGE: scf.forall (%{{.*}}, %{{.*}}) in (1, 32)
// EDGE-COUNT-8: vector.load %arg0[{{.*}}] {alignment = 2 : i64} : memref<16x16xf16, strided<[17, 1]>>, vector<1xf16>
// EDGE-NOT: vector.load %arg0
// EDGE: } {mapping = [#gpu.thread<y>, #gpu.thread<x>]}
// EDGE: scf.forall (%{{.*}}, %{{.*}}) in (1, 32)
// EDGE: %[[IN:.*]] = arith.cmpi ult, %{{.*}}, %c16 : index
// EDGE: scf.if %[[IN]]
// EDGE: vector.load %arg1[{{.*}}] {alignment = 16 : i64} : memref<16x8xf16>, vector<8xf16>
// EDGE: } {mapping = [#gpu.thread<y>, #gpu.thread<x>]}
// EDGE-COUNT-1: vector.contract
// EDGE-NOT: vector.contract
func.func @unaligned(%a: memref<16x16xf16, strided<[17, 1]>>, %b: memref<16x8xf16>, %c: memref<16x8xf32>) {
  linalg.matmul ins(%a, %b : memref<16x16xf16, strided<[17, 1]>>, memref<16x8xf16>) outs(%c : memref<16x8xf32>)
  return
}

// -----

// Casts and transposes that only Tensor Core operands read are computed in
// the copies of the tiles: the f32 weight is read (16 bytes at a time) and
// rounded to f16 on its way to the block's buffer, the transposed activation
// read transposed (one element at a time); neither kernel nor buffer stays.
// A cast that something else also reads stays.
// CHECK-LABEL: func.func @fused
// EDGE-LABEL: func.func @fused
// CHECK: scf.forall
// CHECK: %[[W:.*]] = vector.load %arg1[{{.*}}] {alignment = 16 : i64} : memref<64x64xf32>, vector<4xf32>
// CHECK: arith.truncf %[[W]] : vector<4xf32> to vector<4xf16>
// CHECK: vector.contract
// CHECK-NOT: linalg.generic
// CHECK: linalg.generic
// CHECK: arith.truncf %{{.*}} : f32 to f16
// CHECK-NOT: linalg.generic
// CHECK: scf.forall
// CHECK: vector.load %arg0[{{.*}}] {alignment = 2 : i64} : memref<64x64xf16>, vector<1xf16>
// CHECK: vector.store %{{.*}}, %{{.*}}[{{.*}}] {alignment = 2 : i64} : memref<64x32xf16, #gpu.address_space<workgroup>>, vector<1xf16>
// CHECK: vector.contract
// CHECK: return
func.func @fused(%x: memref<64x64xf16>, %w: memref<64x64xf32>, %c: memref<64x64xf32>, %d: memref<64x64xf32>, %e: memref<64x64xf16>) {
  %w16 = memref.alloc() : memref<64x64xf16>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%w : memref<64x64xf32>) outs(%w16 : memref<64x64xf16>) {
  ^bb0(%in: f32, %out: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  }
  linalg.matmul ins(%x, %w16 : memref<64x64xf16>, memref<64x64xf16>) outs(%c : memref<64x64xf32>)
  %xt = memref.alloc() : memref<64x64xf16>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : memref<64x64xf16>) outs(%xt : memref<64x64xf16>) {
  ^bb0(%in: f16, %out: f16):
    linalg.yield %in : f16
  }
  %d16 = memref.alloc() : memref<64x64xf16>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%d : memref<64x64xf32>) outs(%d16 : memref<64x64xf16>) {
  ^bb0(%in: f32, %out: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  }
  linalg.matmul ins(%xt, %d16 : memref<64x64xf16>, memref<64x64xf16>) outs(%c : memref<64x64xf32>)
  memref.copy %d16, %e : memref<64x64xf16> to memref<64x64xf16>
  memref.dealloc %w16 : memref<64x64xf16>
  memref.dealloc %xt : memref<64x64xf16>
  memref.dealloc %d16 : memref<64x64xf16>
  return
}

// -----

// A transpose that two batched GEMMs read through a collapse_shape (the
// heads of attention: batch and head in one dimension) is computed in both
// GEMMs' copies: the collapsed batch index is split back into batch and
// head ((b floordiv 2, b mod 2)) and the transpose's input read there; the
// transpose, its buffer and the reshape go.
// CHECK-LABEL: func.func @fused_through_reshape
// CHECK-NOT: linalg.generic
// CHECK-NOT: memref.collapse_shape
// CHECK: vector.load %arg0[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] {alignment = 2 : i64} : memref<2x16x2x16xf16>, vector<1xf16>
// CHECK: vector.contract
// CHECK: vector.load %arg0[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] {alignment = 2 : i64} : memref<2x16x2x16xf16>, vector<1xf16>
// CHECK: vector.contract
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @fused_through_reshape(%x: memref<2x16x2x16xf16>, %k: memref<4x16x16xf16>, %c: memref<4x16x16xf32>, %d: memref<4x16x16xf32>) {
  %t = memref.alloc() : memref<2x2x16x16xf16>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d2, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : memref<2x16x2x16xf16>) outs(%t : memref<2x2x16x16xf16>) {
  ^bb0(%in: f16, %out: f16):
    linalg.yield %in : f16
  }
  %q = memref.collapse_shape %t [[0, 1], [2], [3]] : memref<2x2x16x16xf16> into memref<4x16x16xf16>
  linalg.batch_matmul {mp.gpu_tile = array<i64: 16, 16, 16, 8>} ins(%q, %k : memref<4x16x16xf16>, memref<4x16x16xf16>) outs(%c : memref<4x16x16xf32>)
  linalg.batch_matmul {mp.gpu_tile = array<i64: 16, 16, 16, 8>} ins(%k, %q : memref<4x16x16xf16>, memref<4x16x16xf16>) outs(%d : memref<4x16x16xf32>)
  memref.dealloc %t : memref<2x2x16x16xf16>
  return
}

// -----

// The attention output's heads, merged for the projection (one
// collapse_shape) and split again along the rows for its weight
// gradient's split K (an expand_shape of that one): both GEMMs compute the
// transpose in their copies, through the composed reshapes, and the
// transpose, its buffer and both reshapes go.
// CHECK-LABEL: func.func @fused_through_two_reshapes
// CHECK-NOT: linalg.generic
// CHECK-NOT: memref.collapse_shape
// CHECK-NOT: memref.expand_shape
// CHECK: vector.load %arg0[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] {alignment = 2 : i64} : memref<2x2x16x16xf16>, vector<1xf16>
// CHECK: vector.contract
// CHECK: vector.load %arg0[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] {alignment = 2 : i64} : memref<2x2x16x16xf16>, vector<1xf16>
// CHECK: vector.contract
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @fused_through_two_reshapes(%x: memref<2x2x16x16xf16>, %w: memref<32x16xf16>, %g: memref<2x16x16xf16>, %c: memref<32x16xf32>, %d: memref<2x16x32xf32>) {
  %t = memref.alloc() : memref<2x16x2x16xf16>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d2, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : memref<2x2x16x16xf16>) outs(%t : memref<2x16x2x16xf16>) {
  ^bb0(%in: f16, %out: f16):
    linalg.yield %in : f16
  }
  %rows = memref.collapse_shape %t [[0, 1], [2, 3]] : memref<2x16x2x16xf16> into memref<32x32xf16>
  linalg.matmul {mp.gpu_tile = array<i64: 16, 16, 16, 8>} ins(%rows, %w : memref<32x32xf16>, memref<32x16xf16>) outs(%c : memref<32x16xf32>)
  %parts = memref.expand_shape %rows [[0, 1], [2]] output_shape [2, 16, 32] : memref<32x32xf16> into memref<2x16x32xf16>
  linalg.batch_matmul {mp.gpu_tile = array<i64: 16, 16, 16, 8>} ins(%g, %parts : memref<2x16x16xf16>, memref<2x16x32xf16>) outs(%d : memref<2x16x32xf32>)
  memref.dealloc %t : memref<2x16x2x16xf16>
  return
}

// -----

// A producer that two GEMMs read is computed in both copies only when that
// reads no more than storing it once would (R x inputs <= inputs + result
// + R x result): a product of two f32 buffers cast to f16 (2 x 8 KiB read
// against 8 + 2 + 2 x 2 KiB) stays a kernel that stores it in f16; a cast
// alone (2 x 4 against 4 + 2 + 2 x 2) is computed by both.
// CHECK-LABEL: func.func @two_readers_stored
// CHECK: linalg.generic {{.*}}ins(%arg0, %arg1 : memref<32x32xf32>, memref<32x32xf32>)
// CHECK-NEXT: ^bb0
// CHECK-NEXT: arith.mulf
// CHECK-NEXT: arith.truncf
// CHECK: scf.forall
// CHECK-NOT: arith.mulf
// CHECK-LABEL: func.func @two_readers_fused
// CHECK-NOT: linalg.generic
// CHECK: scf.forall
// CHECK: arith.truncf {{.*}} : vector<4xf32> to vector<4xf16>
// CHECK: vector.contract
// CHECK: scf.forall
// CHECK: arith.truncf {{.*}} : vector<4xf32> to vector<4xf16>
// CHECK: vector.contract
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @two_readers_stored(%x: memref<32x32xf32>, %y: memref<32x32xf32>, %w: memref<32x16xf16>, %v: memref<32x16xf16>, %c: memref<32x16xf32>, %d: memref<32x16xf32>) {
  %p = memref.alloc() : memref<32x32xf16>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %y : memref<32x32xf32>, memref<32x32xf32>) outs(%p : memref<32x32xf16>) {
  ^bb0(%a: f32, %b: f32, %out: f16):
    %m = arith.mulf %a, %b : f32
    %t = arith.truncf %m : f32 to f16
    linalg.yield %t : f16
  }
  linalg.matmul {mp.gpu_tile = array<i64: 16, 16, 16, 8>} ins(%p, %w : memref<32x32xf16>, memref<32x16xf16>) outs(%c : memref<32x16xf32>)
  linalg.matmul {mp.gpu_tile = array<i64: 16, 16, 16, 8>} ins(%p, %v : memref<32x32xf16>, memref<32x16xf16>) outs(%d : memref<32x16xf32>)
  memref.dealloc %p : memref<32x32xf16>
  return
}
func.func @two_readers_fused(%x: memref<32x32xf32>, %w: memref<32x16xf16>, %v: memref<32x16xf16>, %c: memref<32x16xf32>, %d: memref<32x16xf32>) {
  %p = memref.alloc() : memref<32x32xf16>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : memref<32x32xf32>) outs(%p : memref<32x32xf16>) {
  ^bb0(%a: f32, %out: f16):
    %t = arith.truncf %a : f32 to f16
    linalg.yield %t : f16
  }
  linalg.matmul {mp.gpu_tile = array<i64: 16, 16, 16, 8>} ins(%p, %w : memref<32x32xf16>, memref<32x16xf16>) outs(%c : memref<32x16xf32>)
  linalg.matmul {mp.gpu_tile = array<i64: 16, 16, 16, 8>} ins(%p, %v : memref<32x32xf16>, memref<32x16xf16>) outs(%d : memref<32x16xf32>)
  memref.dealloc %p : memref<32x32xf16>
  return
}

// -----

// An input that a reduction reads as well is read by a kernel anyway (the
// cast joins the reduction's loops), so only the cast's result counts
// against the two GEMMs reading it twice: 2 x 4 KiB against 2 + 2 x 2, and
// the cast is stored once (a softmax's scores, which its reductions and
// its probabilities read). An input that only a GEMM reads as well counts
// as before: the cast is computed by both.
// CHECK-LABEL: func.func @two_readers_input_reduced
// CHECK: linalg.generic {{.*}}ins(%arg0 : memref<32x32xf32>) outs(%{{.+}} : memref<32x32xf16>)
// CHECK-NEXT: ^bb0
// CHECK-NEXT: arith.truncf
// CHECK-LABEL: func.func @two_readers_input_multiplied
// CHECK-NOT: outs(%{{.+}} : memref<32x32xf16>)
// CHECK: scf.forall
// CHECK: arith.truncf {{.*}} : vector<4xf32> to vector<4xf16>
// CHECK: vector.contract
// CHECK: scf.forall
// CHECK: arith.truncf {{.*}} : vector<4xf32> to vector<4xf16>
// CHECK: vector.contract
// CHECK: return
func.func @two_readers_input_reduced(%x: memref<32x32xf32>, %w: memref<32x16xf16>, %v: memref<32x16xf16>, %c: memref<32x16xf32>, %d: memref<32x16xf32>, %sum: memref<32xf32>) {
  %p = memref.alloc() : memref<32x32xf16>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : memref<32x32xf32>) outs(%p : memref<32x32xf16>) {
  ^bb0(%a: f32, %out: f16):
    %t = arith.truncf %a : f32 to f16
    linalg.yield %t : f16
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<32x32xf32>) outs(%sum : memref<32xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %acc, %a : f32
    linalg.yield %s : f32
  }
  linalg.matmul {mp.gpu_tile = array<i64: 16, 16, 16, 8>} ins(%p, %w : memref<32x32xf16>, memref<32x16xf16>) outs(%c : memref<32x16xf32>)
  linalg.matmul {mp.gpu_tile = array<i64: 16, 16, 16, 8>} ins(%p, %v : memref<32x32xf16>, memref<32x16xf16>) outs(%d : memref<32x16xf32>)
  memref.dealloc %p : memref<32x32xf16>
  return
}
func.func @two_readers_input_multiplied(%x: memref<32x32xf32>, %w: memref<32x16xf16>, %v: memref<32x16xf16>, %c: memref<32x16xf32>, %d: memref<32x16xf32>, %u: memref<32x16xf32>, %e: memref<32x16xf32>) {
  %p = memref.alloc() : memref<32x32xf16>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : memref<32x32xf32>) outs(%p : memref<32x32xf16>) {
  ^bb0(%a: f32, %out: f16):
    %t = arith.truncf %a : f32 to f16
    linalg.yield %t : f16
  }
  linalg.matmul ins(%x, %u : memref<32x32xf32>, memref<32x16xf32>) outs(%e : memref<32x16xf32>)
  linalg.matmul {mp.gpu_tile = array<i64: 16, 16, 16, 8>} ins(%p, %w : memref<32x32xf16>, memref<32x16xf16>) outs(%c : memref<32x16xf32>)
  linalg.matmul {mp.gpu_tile = array<i64: 16, 16, 16, 8>} ins(%p, %v : memref<32x32xf16>, memref<32x16xf16>) outs(%d : memref<32x16xf32>)
  memref.dealloc %p : memref<32x32xf16>
  return
}

// -----

// C set by a fill just before the contraction (directly, or by a copy of a
// buffer a fill set): the block's C tile is staged and set to the fill's
// value in the workgroup buffer (16 bytes per store), the warps accumulate
// on it, its tile is copied out; the fill of C and the copy go, C is never
// read. The fill of the copied buffer stays (something else reads it); a
// fill that something reads before the contraction stays too.
// Blocks of 2 warps of 32x32 keep the fill (ptxas spilled in such a
// kernel when C was staged); one warp of 16x8 folds it.
// TWO-LABEL: func.func @folded_init
// TWO: linalg.fill ins(%{{.*}} : f32) outs(%arg2 : memref<64x64xf32>)
// TWO: scf.forall
// EDGE-LABEL: func.func @folded_init
// EDGE-NOT: linalg.fill {{.*}}outs(%arg2
// EDGE: scf.forall
// CHECK-LABEL: func.func @folded_init
// CHECK-SAME: (%[[A:.*]]: memref<64x64xf16>, %[[B:.*]]: memref<64x64xf16>, %[[C:.*]]: memref<64x64xf32>, %[[D:.*]]: memref<64x64xf32>, %[[Z:.*]]: memref<64x64xf32>, %[[E:.*]]: memref<64x64xf32>, %[[SUM:.*]]: memref<64x64xf32>)
// CHECK-DAG: %[[SPLAT:.*]] = arith.constant dense<0.000000e+00> : vector<4xf32>
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NOT: linalg.fill
// CHECK: scf.forall
// CHECK: %[[CT:.*]] = memref.alloc() : memref<64x64xf32, #gpu.address_space<workgroup>>
// CHECK: scf.forall (%{{.*}}, %{{.*}}) in (2, 64)
// CHECK-COUNT-8: vector.store %[[SPLAT]], %[[CT]][{{.*}}] {alignment = 16 : i64}
// CHECK: } {mapping = [#gpu.thread<y>, #gpu.thread<x>]}
// CHECK: scf.for
// CHECK: vector.contract
// CHECK: scf.forall (%{{.*}}, %{{.*}}) in (2, 64)
// CHECK: %[[V:.*]] = vector.load %[[CT]][{{.*}}] {alignment = 16 : i64}
// CHECK: vector.store %[[V]], %[[C]][{{.*}}] {alignment = 16 : i64}
// CHECK: } {mapping = [#gpu.block<y>, #gpu.block<x>]{{.*}}}
// CHECK: linalg.fill ins(%[[ZERO]] : f32) outs(%[[Z]] : memref<64x64xf32>)
// CHECK-NOT: memref.copy %[[Z]], %[[D]]
// CHECK: scf.forall
// CHECK: vector.store %[[SPLAT]]
// CHECK: vector.store %{{.*}}, %[[D]]
// CHECK: } {mapping = [#gpu.block<y>, #gpu.block<x>]{{.*}}}
// CHECK: memref.copy %[[Z]], %[[SUM]]
// CHECK: linalg.fill ins(%[[ZERO]] : f32) outs(%[[E]] : memref<64x64xf32>)
// CHECK: linalg.generic {{.*}} ins(%[[E]] : memref<64x64xf32>)
// CHECK: scf.forall
// CHECK-NOT: vector.store %[[SPLAT]]
// CHECK: } {mapping = [#gpu.block<y>, #gpu.block<x>]{{.*}}}
func.func @folded_init(%a: memref<64x64xf16>, %b: memref<64x64xf16>, %c: memref<64x64xf32>, %d: memref<64x64xf32>, %z: memref<64x64xf32>, %e: memref<64x64xf32>, %sum: memref<64x64xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<64x64xf32>)
  linalg.matmul ins(%a, %b : memref<64x64xf16>, memref<64x64xf16>) outs(%c : memref<64x64xf32>)
  linalg.fill ins(%zero : f32) outs(%z : memref<64x64xf32>)
  memref.copy %z, %d : memref<64x64xf32> to memref<64x64xf32>
  linalg.matmul ins(%a, %b : memref<64x64xf16>, memref<64x64xf16>) outs(%d : memref<64x64xf32>)
  memref.copy %z, %sum : memref<64x64xf32> to memref<64x64xf32>
  linalg.fill ins(%zero : f32) outs(%e : memref<64x64xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%e : memref<64x64xf32>) outs(%sum : memref<64x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  }
  linalg.matmul ins(%a, %b : memref<64x64xf16>, memref<64x64xf16>) outs(%e : memref<64x64xf32>)
  return
}

// -----

// A convolution as a GEMM (mp-gpu-conv-to-gemm): the patches of the image
// and the filter are gathers through affine maps with floordiv and mod,
// computed in the copies of the tiles (one element at a time, at the
// indices the gathers' maps give); neither gather nor its buffer stays. The output
// is a reshape of a buffer that a fill set just before: the fill of the
// buffer goes and the C tile starts from its value.
// CHECK-LABEL: func.func @conv_gathers
// CHECK-SAME: (%[[IMG:.*]]: memref<2x16x18x18xf16>, %[[W:.*]]: memref<64x16x3x3xf16>, %[[OUT:.*]]: memref<2x64x8x8xf32>)
// CHECK-DAG: %[[SPLAT:.*]] = arith.constant dense<0.000000e+00> : vector<4xf32>
// CHECK-NOT: linalg.fill
// CHECK-NOT: linalg.generic
// CHECK: %[[C:.*]] = memref.collapse_shape %[[OUT]] {{\[}}[0], [1], [2, 3]]
// CHECK: scf.forall
// CHECK: vector.store %[[SPLAT]]
// CHECK: scf.for
// CHECK: vector.load %[[W]][{{.*}}] {alignment = 2 : i64} : memref<64x16x3x3xf16>, vector<1xf16>
// CHECK: vector.load %[[IMG]][{{.*}}] {alignment = 2 : i64} : memref<2x16x18x18xf16>, vector<1xf16>
// CHECK: vector.contract
// CHECK: vector.store %{{.*}}, %[[C]]
// CHECK: } {mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]{{.*}}}
// CHECK-NOT: linalg.generic
func.func @conv_gathers(%img: memref<2x16x18x18xf16>, %w: memref<64x16x3x3xf16>, %out: memref<2x64x8x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %patches = memref.alloc() : memref<2x64x144xf16>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2 floordiv 9, (d1 floordiv 8) * 2 + (d2 floordiv 3) mod 3, (d1 mod 8) * 2 + d2 mod 3)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%img : memref<2x16x18x18xf16>) outs(%patches : memref<2x64x144xf16>) {
  ^bb0(%in: f16, %o: f16):
    linalg.yield %in : f16
  }
  %filter = memref.alloc() : memref<2x64x144xf16>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d2 floordiv 9, (d2 floordiv 3) mod 3, d2 mod 3)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%w : memref<64x16x3x3xf16>) outs(%filter : memref<2x64x144xf16>) {
  ^bb0(%in: f16, %o: f16):
    linalg.yield %in : f16
  }
  linalg.fill ins(%zero : f32) outs(%out : memref<2x64x8x8xf32>)
  %c = memref.collapse_shape %out [[0], [1], [2, 3]] : memref<2x64x8x8xf32> into memref<2x64x64xf32>
  linalg.generic {indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%filter, %patches : memref<2x64x144xf16>, memref<2x64x144xf16>) outs(%c : memref<2x64x64xf32>) {
  ^bb0(%a: f16, %b: f16, %acc: f32):
    %ea = arith.extf %a : f16 to f32
    %eb = arith.extf %b : f16 to f32
    %p = arith.mulf %ea, %eb : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  memref.dealloc %patches : memref<2x64x144xf16>
  memref.dealloc %filter : memref<2x64x144xf16>
  return
}

// -----

// A producer that computes (here a flipped, rounded filter read with
// `linalg.index`) is outlined into a function that the copies call for each
// element: upstream's vector-to-nvgpu conversion would take its arithmetic
// in the kernel for part of the Tensor Core chain. Run on a function rather
// than on the module, the pass cannot add functions and leaves it.
// CHECK-LABEL: func.func private @flipped_compute
// CHECK-SAME: (%[[I:.*]]: index, %[[J:.*]]: index, %[[C63:.*]]: index, %[[W:.*]]: memref<64x64xf32>) -> f16
// CHECK: %[[R:.*]] = arith.subi %[[C63]], %[[I]] : index
// CHECK: %[[V:.*]] = memref.load %[[W]][%[[R]], %[[J]]] : memref<64x64xf32>
// CHECK: %[[T:.*]] = arith.truncf %[[V]] : f32 to f16
// CHECK: return %[[T]] : f16
// CHECK-LABEL: func.func @flipped
// CHECK-NOT: linalg.generic
// CHECK: scf.forall
// CHECK: func.call @flipped_compute(%{{.*}}, %{{.*}}, %{{.*}}, %arg1) : (index, index, index, memref<64x64xf32>) -> f16
// CHECK: vector.contract
// NESTED-LABEL: func.func @flipped
// NESTED: linalg.generic
// NESTED-NOT: func.call
func.func @flipped(%a: memref<64x64xf16>, %w: memref<64x64xf32>, %c: memref<64x64xf32>) {
  %c63 = arith.constant 63 : index
  %b = memref.alloc() : memref<64x64xf16>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%b : memref<64x64xf16>) {
  ^bb0(%out: f16):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %r = arith.subi %c63, %i : index
    %v = memref.load %w[%r, %j] : memref<64x64xf32>
    %t = arith.truncf %v : f32 to f16
    linalg.yield %t : f16
  }
  linalg.matmul ins(%a, %b : memref<64x64xf16>, memref<64x64xf16>) outs(%c : memref<64x64xf32>)
  memref.dealloc %b : memref<64x64xf16>
  return
}

// -----

// An epilogue (a bias along the columns, a scale along the rows, the cast
// to f16, a ReLU) that next reads a C nothing else needs is computed by the
// copy of C's tiles back to memory, 4 elements at a time: C staged (here set
// to the fill's value), the bias loaded as a vector, the row's scale
// broadcast, the result stored in the epilogue's output; neither the
// epilogue nor C's f32 values reach memory.
// CHECK-LABEL: func.func @epilogue
// CHECK-SAME: (%{{.*}}: memref<64x64xf16>, %{{.*}}: memref<64x64xf16>, %[[BIAS:.*]]: memref<64xf32>, %[[SCALE:.*]]: memref<64xf32>, %[[OUT:.*]]: memref<64x64xf16>)
// CHECK-NOT: linalg.generic
// CHECK: %[[CT:.*]] = memref.alloc() : memref<64x64xf32, #gpu.address_space<workgroup>>
// CHECK: scf.for
// CHECK-COUNT-16: vector.contract
// CHECK: scf.forall (%{{.*}}, %{{.*}}) in (2, 64)
// CHECK: %[[ACC:.*]] = vector.load %[[CT]][{{.*}}] {alignment = 16 : i64} : memref<64x64xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// CHECK: %[[B:.*]] = vector.load %[[BIAS]][{{.*}}] {alignment = 16 : i64} : memref<64xf32>, vector<4xf32>
// CHECK: %[[S:.*]] = memref.load %[[SCALE]][{{.*}}] : memref<64xf32>
// CHECK: %[[SV:.*]] = vector.broadcast %[[S]] : f32 to vector<4xf32>
// CHECK: %[[SUM:.*]] = arith.addf %[[B]], %[[ACC]] : vector<4xf32>
// CHECK: %[[P:.*]] = arith.mulf %[[SUM]], %[[SV]] : vector<4xf32>
// CHECK: %[[H:.*]] = arith.truncf %[[P]] : vector<4xf32> to vector<4xf16>
// CHECK: %[[R:.*]] = arith.maximumf %[[H]], %{{.*}} : vector<4xf16>
// CHECK: vector.store %[[R]], %[[OUT]][{{.*}}] {alignment = 8 : i64} : memref<64x64xf16>, vector<4xf16>
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @epilogue(%a: memref<64x64xf16>, %b: memref<64x64xf16>, %bias: memref<64xf32>, %scale: memref<64xf32>, %out: memref<64x64xf16>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<64x64xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<64x64xf32>)
  linalg.matmul ins(%a, %b : memref<64x64xf16>, memref<64x64xf16>) outs(%c : memref<64x64xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%bias, %scale, %c : memref<64xf32>, memref<64xf32>, memref<64x64xf32>) outs(%out : memref<64x64xf16>) {
  ^bb0(%x: f32, %s: f32, %y: f32, %o: f16):
    %sum = arith.addf %x, %y : f32
    %p = arith.mulf %sum, %s : f32
    %t = arith.truncf %p : f32 to f16
    %zh = arith.constant 0.0 : f16
    %r = arith.maximumf %t, %zh : f16
    linalg.yield %r : f16
  }
  memref.dealloc %c : memref<64x64xf32>
  return
}

// -----

// C seen as a reshape (a convolution's output as a matrix) and an epilogue
// on the buffer itself: the copy out delinearizes C's column into the
// buffer's last two indices (rows of 8 keep chunks of 4 contiguous). Its
// output, allocated after the contraction, is allocated before it now.
// CHECK-LABEL: func.func @epilogue_reshaped
// CHECK: %[[OUT:.*]] = memref.alloc() : memref<16x4x8xf16>
// CHECK: scf.forall
// CHECK: scf.for
// CHECK: vector.contract
// CHECK: scf.forall (%[[Y:.*]], %[[X:.*]]) in
// CHECK: %[[ACC:.*]] = vector.load %{{.*}} : memref<16x32xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// CHECK: %[[H:.*]] = arith.truncf %[[ACC]] : vector<4xf32> to vector<4xf16>
// CHECK: vector.store %[[H]], %[[OUT]][%{{.*}}, %{{.*}}, %{{.*}}] {alignment = 8 : i64} : memref<16x4x8xf16>, vector<4xf16>
// CHECK-NOT: linalg.generic
// CHECK: return %[[OUT]]
func.func @epilogue_reshaped(%a: memref<16x16xf16>, %b: memref<16x32xf16>) -> memref<16x4x8xf16> {
  %zero = arith.constant 0.0 : f32
  %o = memref.alloc() : memref<16x4x8xf32>
  linalg.fill ins(%zero : f32) outs(%o : memref<16x4x8xf32>)
  %c = memref.collapse_shape %o [[0], [1, 2]] : memref<16x4x8xf32> into memref<16x32xf32>
  linalg.matmul {mp.gpu_tile = array<i64: 16, 32, 16, 16>} ins(%a, %b : memref<16x16xf16>, memref<16x32xf16>) outs(%c : memref<16x32xf32>)
  %out = memref.alloc() : memref<16x4x8xf16>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%o : memref<16x4x8xf32>) outs(%out : memref<16x4x8xf16>) {
  ^bb0(%y: f32, %h: f16):
    %t = arith.truncf %y : f32 to f16
    linalg.yield %t : f16
  }
  memref.dealloc %o : memref<16x4x8xf32>
  return %out : memref<16x4x8xf16>
}

// -----

// An epilogue that reads a row statistic of shape Nx1 (a softmax's row sum
// as torch-mlir keeps it, map (d0, d1) -> (d0, 0)) is computed by the copy
// out as well: the statistic loaded at column 0 of its row and broadcast.
// CHECK-LABEL: func.func @epilogue_row_statistic
// CHECK-SAME: (%{{.*}}: memref<64x64xf16>, %{{.*}}: memref<64x64xf16>, %[[SUM:.*]]: memref<64x1xf32>, %[[OUT:.*]]: memref<64x64xf16>)
// CHECK-NOT: linalg.generic
// CHECK: scf.forall (%{{.*}}, %{{.*}}) in (2, 64)
// CHECK: %[[ACC:.*]] = vector.load %{{.*}} : memref<64x64xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// CHECK: %[[S:.*]] = memref.load %[[SUM]][%{{.*}}, %c0] : memref<64x1xf32>
// CHECK: %[[SV:.*]] = vector.broadcast %[[S]] : f32 to vector<4xf32>
// CHECK: %[[Q:.*]] = arith.divf %[[ACC]], %[[SV]] : vector<4xf32>
// CHECK: %[[H:.*]] = arith.truncf %[[Q]] : vector<4xf32> to vector<4xf16>
// CHECK: vector.store %[[H]], %[[OUT]][{{.*}}] {alignment = 8 : i64} : memref<64x64xf16>, vector<4xf16>
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @epilogue_row_statistic(%a: memref<64x64xf16>, %b: memref<64x64xf16>, %sum: memref<64x1xf32>, %out: memref<64x64xf16>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<64x64xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<64x64xf32>)
  linalg.matmul ins(%a, %b : memref<64x64xf16>, memref<64x64xf16>) outs(%c : memref<64x64xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%c, %sum : memref<64x64xf32>, memref<64x1xf32>) outs(%out : memref<64x64xf16>) {
  ^bb0(%y: f32, %s: f32, %o: f16):
    %q = arith.divf %y, %s : f32
    %t = arith.truncf %q : f32 to f16
    linalg.yield %t : f16
  }
  memref.dealloc %c : memref<64x64xf32>
  return
}

// -----

// At the edges (37x61) the copy out computes the epilogue one element at a
// time, inside C only; an epilogue that writes C in place keeps C, read
// after it.
// CHECK-LABEL: func.func @epilogue_odd
// CHECK: %[[C:.*]] = memref.alloc() : memref<37x61xf32>
// CHECK: scf.for
// CHECK: vector.contract
// CHECK: scf.forall (%{{.*}}, %{{.*}}) in (2, 64)
// CHECK: scf.if
// CHECK: %[[ACC:.*]] = memref.load %{{.*}} : memref<64x64xf32, #gpu.address_space<workgroup>>
// CHECK: %[[TWICE:.*]] = arith.mulf %[[ACC]], %{{.*}} : f32
// CHECK: memref.store %[[TWICE]], %[[C]][%{{.*}}, %{{.*}}] : memref<37x61xf32>
// CHECK-NOT: linalg.generic
// CHECK: memref.copy %[[C]], %arg2
func.func @epilogue_odd(%a: memref<37x29xf16>, %b: memref<29x61xf16>, %r: memref<37x61xf32>) {
  %zero = arith.constant 0.0 : f32
  %two = arith.constant 2.0 : f32
  %c = memref.alloc() : memref<37x61xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<37x61xf32>)
  linalg.matmul ins(%a, %b : memref<37x29xf16>, memref<29x61xf16>) outs(%c : memref<37x61xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%c : memref<37x61xf32>) outs(%c : memref<37x61xf32>) {
  ^bb0(%y: f32, %o: f32):
    %t = arith.mulf %y, %two : f32
    linalg.yield %t : f32
  }
  memref.copy %c, %r : memref<37x61xf32> to memref<37x61xf32>
  memref.dealloc %c : memref<37x61xf32>
  return
}

// -----

// C read again after the epilogue (@c_live): the copy out stores C and the
// epilogue's result; the next reader of C stays. Epilogues left alone: the
// epilogue's output read before it (@out_read), one of its inputs written
// before it (@input_written), its output an operand of the contraction
// (@out_is_operand).
// CHECK-LABEL: func.func @c_live
// CHECK-SAME: (%{{.*}}: memref<64x64xf16>, %{{.*}}: memref<64x64xf16>, %[[OUT:.*]]: memref<64x64xf16>, %{{.*}}: memref<64x64xf16>)
// CHECK: %[[C:.*]] = memref.alloc() : memref<64x64xf32>
// CHECK: scf.for
// CHECK: scf.forall (%{{.*}}, %{{.*}}) in (2, 64)
// CHECK: %[[ACC:.*]] = vector.load {{.*}} : memref<64x64xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// CHECK: vector.store %[[ACC]], %[[C]]
// CHECK: %[[H:.*]] = arith.truncf %[[ACC]] : vector<4xf32> to vector<4xf16>
// CHECK: vector.store %[[H]], %[[OUT]]
// CHECK: } {mapping = [#gpu.block<y>, #gpu.block<x>]{{.*}}}
// CHECK-NEXT: linalg.generic
// CHECK-SAME: ins(%[[C]]
// CHECK-NEXT: ^bb0
// CHECK-NEXT: arith.truncf
// CHECK-NEXT: arith.negf
// CHECK-LABEL: func.func @out_read
// CHECK: scf.forall
// CHECK: memref.copy
// CHECK-NEXT: linalg.generic
// CHECK-LABEL: func.func @input_written
// CHECK: scf.forall
// CHECK: linalg.fill
// CHECK-NEXT: linalg.generic
// CHECK-LABEL: func.func @out_is_operand
// CHECK: scf.forall
// CHECK: linalg.generic
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @c_live(%a: memref<64x64xf16>, %b: memref<64x64xf16>, %out: memref<64x64xf16>, %out2: memref<64x64xf16>) {
  %c = memref.alloc() : memref<64x64xf32>
  linalg.matmul ins(%a, %b : memref<64x64xf16>, memref<64x64xf16>) outs(%c : memref<64x64xf32>)
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%c : memref<64x64xf32>) outs(%out : memref<64x64xf16>) {
  ^bb0(%y: f32, %o: f16):
    %t = arith.truncf %y : f32 to f16
    linalg.yield %t : f16
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%c : memref<64x64xf32>) outs(%out2 : memref<64x64xf16>) {
  ^bb0(%y: f32, %o: f16):
    %t = arith.truncf %y : f32 to f16
    %n = arith.negf %t : f16
    linalg.yield %n : f16
  }
  return
}
func.func @out_read(%a: memref<64x64xf16>, %b: memref<64x64xf16>, %out: memref<64x64xf16>, %saved: memref<64x64xf16>) {
  %c = memref.alloc() : memref<64x64xf32>
  linalg.matmul ins(%a, %b : memref<64x64xf16>, memref<64x64xf16>) outs(%c : memref<64x64xf32>)
  memref.copy %out, %saved : memref<64x64xf16> to memref<64x64xf16>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%c : memref<64x64xf32>) outs(%out : memref<64x64xf16>) {
  ^bb0(%y: f32, %o: f16):
    %t = arith.truncf %y : f32 to f16
    linalg.yield %t : f16
  }
  return
}
func.func @input_written(%a: memref<64x64xf16>, %b: memref<64x64xf16>, %bias: memref<64x64xf32>, %out: memref<64x64xf32>) {
  %one = arith.constant 1.0 : f32
  %c = memref.alloc() : memref<64x64xf32>
  linalg.matmul ins(%a, %b : memref<64x64xf16>, memref<64x64xf16>) outs(%c : memref<64x64xf32>)
  linalg.fill ins(%one : f32) outs(%bias : memref<64x64xf32>)
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%c, %bias : memref<64x64xf32>, memref<64x64xf32>) outs(%out : memref<64x64xf32>) {
  ^bb0(%y: f32, %x: f32, %o: f32):
    %t = arith.addf %y, %x : f32
    linalg.yield %t : f32
  }
  return
}
func.func @out_is_operand(%a: memref<64x64xf16>, %b: memref<64x64xf16>) {
  %c = memref.alloc() : memref<64x64xf32>
  linalg.matmul ins(%a, %b : memref<64x64xf16>, memref<64x64xf16>) outs(%c : memref<64x64xf32>)
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%c : memref<64x64xf32>) outs(%a : memref<64x64xf16>) {
  ^bb0(%y: f32, %o: f16):
    %t = arith.truncf %y : f32 to f16
    linalg.yield %t : f16
  }
  return
}

// -----

// Attention scores: C set by a copy of a filled buffer and read back through
// a reshape (batch of heads split in two). The copy is folded (C's tile set
// to 0 in the workgroup buffer) and the scaling, which reads the reshape, is
// the epilogue: batch index b of C is (b floordiv 2, b mod 2) of its output.
// CHECK-DAG: #[[PAIR:.*]] = affine_map<(d0) -> (d0 floordiv 2)>
// CHECK-DAG: #[[HALF:.*]] = affine_map<(d0) -> (d0 mod 2)>
// CHECK-LABEL: func.func @scores
// CHECK-SAME: %[[OUT:[a-z0-9]+]]: memref<2x2x16x16xf32>
// CHECK-NOT: memref.copy
// CHECK: scf.forall (%[[B:.*]], %{{.*}}, %{{.*}}) = (0, 0, 0) to (4, 16, 16) step (1, 16, 16)
// CHECK: %[[CT:.*]] = memref.alloc() : memref<1x16x16xf32, #gpu.address_space<workgroup>>
// CHECK: vector.store %{{.*}}, %[[CT]][%{{.*}}, %{{.*}}, %{{.*}}] {{.*}} vector<4xf32>
// CHECK: vector.contract
// CHECK: %[[ACC:.*]] = vector.load %[[CT]]{{.*}} vector<4xf32>
// CHECK: %[[HEADS:.*]] = affine.apply #[[PAIR]](%[[B]])
// CHECK: %[[HEAD:.*]] = affine.apply #[[HALF]](%[[B]])
// CHECK: %[[S:.*]] = arith.divf %[[ACC]], %{{.*}} : vector<4xf32>
// CHECK: vector.store %[[S]], %[[OUT]][%[[HEADS]], %[[HEAD]], %{{.*}}, %{{.*}}] {{.*}} : memref<2x2x16x16xf32>, vector<4xf32>
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @scores(%q: memref<4x16x16xf16>, %k: memref<4x16x16xf16>, %out: memref<2x2x16x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %four = arith.constant 4.0 : f32
  %z = memref.alloc() : memref<4x16x16xf32>
  linalg.fill ins(%zero : f32) outs(%z : memref<4x16x16xf32>)
  %c = memref.alloc() : memref<4x16x16xf32>
  memref.copy %z, %c : memref<4x16x16xf32> to memref<4x16x16xf32>
  linalg.batch_matmul {mp.gpu_tile = array<i64: 16, 16, 16, 8>} ins(%q, %k : memref<4x16x16xf16>, memref<4x16x16xf16>) outs(%c : memref<4x16x16xf32>)
  %v = memref.expand_shape %c [[0, 1], [2], [3]] output_shape [2, 2, 16, 16] : memref<4x16x16xf32> into memref<2x2x16x16xf32>
  linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%v : memref<2x2x16x16xf32>) outs(%out : memref<2x2x16x16xf32>) {
  ^bb0(%s: f32, %o: f32):
    %d = arith.divf %s, %four : f32
    linalg.yield %d : f32
  }
  memref.dealloc %c : memref<4x16x16xf32>
  memref.dealloc %z : memref<4x16x16xf32>
  return
}

// -----

// A loss scaler's unscaling and finite check after a gradient GEMM: the copy
// of C computes both; the check sets the flag where a chunk of C holds an
// infinite or NaN element, and the flag's allocation and fill (false) move
// before the contraction. C, read by nothing else, is never stored.
// CHECK-LABEL: func.func @finite_flag
// CHECK-SAME: %[[OUT:[a-z0-9]+]]: memref<64x64xf32>) -> memref<i1>
// CHECK: %[[FLAG:.*]] = memref.alloc() : memref<i1>
// CHECK-NEXT: linalg.fill ins(%false : i1) outs(%[[FLAG]] : memref<i1>)
// CHECK-NEXT: scf.forall
// CHECK: vector.contract
// CHECK: scf.forall (%{{.*}}, %{{.*}}) in (2, 64)
// CHECK: %[[ACC:.*]] = vector.load {{.*}} : memref<64x64xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// CHECK: %[[U:.*]] = arith.mulf %[[ACC]], %{{.*}} : vector<4xf32>
// CHECK: vector.store %[[U]], %[[OUT]]
// CHECK-NOT: vector.store %[[ACC]]
// CHECK: %[[ABS:.*]] = math.absf %[[ACC]] : vector<4xf32>
// CHECK: %[[FIN:.*]] = arith.cmpf olt, %[[ABS]], %{{.*}} : vector<4xf32>
// CHECK: %[[NF:.*]] = arith.xori %[[FIN]], %{{.*}} : vector<4xi1>
// CHECK: %[[ANY:.*]] = vector.reduction <or>, %[[NF]] : vector<4xi1> into i1
// CHECK: scf.if %[[ANY]] {
// CHECK: memref.store %true, %[[FLAG]][] : memref<i1>
// CHECK-NOT: linalg.generic
// CHECK: return %[[FLAG]]
func.func @finite_flag(%a: memref<64x64xf16>, %b: memref<64x64xf16>, %out: memref<64x64xf32>) -> memref<i1> {
  %zero = arith.constant 0.0 : f32
  %quarter = arith.constant 0.25 : f32
  %inf = arith.constant 0x7F800000 : f32
  %false = arith.constant false
  %true = arith.constant true
  %c = memref.alloc() : memref<64x64xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<64x64xf32>)
  linalg.matmul ins(%a, %b : memref<64x64xf16>, memref<64x64xf16>) outs(%c : memref<64x64xf32>)
  %flag = memref.alloc() : memref<i1>
  linalg.fill ins(%false : i1) outs(%flag : memref<i1>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%c : memref<64x64xf32>) outs(%out : memref<64x64xf32>) {
  ^bb0(%v: f32, %o: f32):
    %u = arith.mulf %v, %quarter : f32
    linalg.yield %u : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%c : memref<64x64xf32>) outs(%flag : memref<i1>) {
  ^bb0(%v: f32, %acc: i1):
    %abs = math.absf %v : f32
    %ok = arith.cmpf olt, %abs, %inf : f32
    %bad = arith.xori %ok, %true : i1
    %any = arith.ori %acc, %bad : i1
    linalg.yield %any : i1
  }
  memref.dealloc %c : memref<64x64xf32>
  return %flag : memref<i1>
}

// -----

// The flag read between the GEMM and its check (@flag_read): the check
// stays a reduction of its own.
// CHECK-LABEL: func.func @flag_read
// CHECK: scf.forall
// CHECK: memref.copy
// CHECK-NEXT: linalg.generic
// CHECK-SAME: iterator_types = ["reduction", "reduction"]
func.func @flag_read(%a: memref<64x64xf16>, %b: memref<64x64xf16>, %flag: memref<i1>, %saved: memref<i1>) {
  %inf = arith.constant 0x7F800000 : f32
  %true = arith.constant true
  %c = memref.alloc() : memref<64x64xf32>
  linalg.matmul ins(%a, %b : memref<64x64xf16>, memref<64x64xf16>) outs(%c : memref<64x64xf32>)
  memref.copy %flag, %saved : memref<i1> to memref<i1>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%c : memref<64x64xf32>) outs(%flag : memref<i1>) {
  ^bb0(%v: f32, %acc: i1):
    %abs = math.absf %v : f32
    %ok = arith.cmpf olt, %abs, %inf : f32
    %bad = arith.xori %ok, %true : i1
    %any = arith.ori %acc, %bad : i1
    linalg.yield %any : i1
  }
  memref.dealloc %c : memref<64x64xf32>
  return
}

// -----

// A check alone after the GEMM, the flag read before it (found by the
// pipeline fuzzer, from @flag_read with the copy moved up): an epilogue of
// a flag and no consumer. The copy out sets the flag where a chunk is not
// finite, and C is not stored (the check was its last reader); the pass
// crashed on the missing consumer before.
// CHECK-LABEL: func.func @flag_only
// CHECK: memref.copy
// CHECK: scf.forall
// CHECK-NOT: vector.store {{.*}} : memref<64x64xf32>, vector
// CHECK: vector.reduction <or>
// CHECK: memref.store %true, %arg2[] : memref<i1>
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @flag_only(%a: memref<64x64xf16>, %b: memref<64x64xf16>, %flag: memref<i1>, %saved: memref<i1>) {
  %inf = arith.constant 0x7F800000 : f32
  %true = arith.constant true
  %c = memref.alloc() : memref<64x64xf32>
  memref.copy %flag, %saved : memref<i1> to memref<i1>
  linalg.matmul ins(%a, %b : memref<64x64xf16>, memref<64x64xf16>) outs(%c : memref<64x64xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%c : memref<64x64xf32>) outs(%flag : memref<i1>) {
  ^bb0(%v: f32, %acc: i1):
    %abs = math.absf %v : f32
    %ok = arith.cmpf olt, %abs, %inf : f32
    %bad = arith.xori %ok, %true : i1
    %any = arith.ori %acc, %bad : i1
    linalg.yield %any : i1
  }
  memref.dealloc %c : memref<64x64xf32>
  return
}

// -----

// C set by a broadcast of a bias (as a convolution's accumulator is), here
// through a reshape of the buffer the bias fills: the copy of C into the
// workgroup buffer reads the bias at the element's indices (column j of C
// is (j floordiv 8, j mod 8) of the buffer, whose first index the bias
// follows) instead of C; the broadcast goes.
// CHECK-DAG: #[[CHANNEL:.*]] = affine_map<(d0, d1) -> ((d0 + d1 mod 32) floordiv 8)>
// CHECK-LABEL: func.func @bias_init
// CHECK-NOT: linalg.generic
// CHECK: %[[CT:.*]] = memref.alloc() : memref<16x32xf32, #gpu.address_space<workgroup>>
// CHECK: scf.forall
// CHECK: %[[CH:.*]] = affine.apply #[[CHANNEL]]
// CHECK: %[[B:.*]] = vector.load %arg2[%[[CH]]] {{.*}} : memref<4xf32>, vector<1xf32>
// CHECK: vector.store %[[B]], %[[CT]]
// CHECK: scf.for
// CHECK: vector.contract
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @bias_init(%a: memref<16x16xf16>, %b: memref<16x32xf16>, %bias: memref<4xf32>, %out: memref<16x4x8xf16>) {
  %o = memref.alloc() : memref<16x4x8xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%bias : memref<4xf32>) outs(%o : memref<16x4x8xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  }
  %c = memref.collapse_shape %o [[0], [1, 2]] : memref<16x4x8xf32> into memref<16x32xf32>
  linalg.matmul {mp.gpu_tile = array<i64: 16, 32, 16, 16>} ins(%a, %b : memref<16x16xf16>, memref<16x32xf16>) outs(%c : memref<16x32xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%o : memref<16x4x8xf32>) outs(%out : memref<16x4x8xf16>) {
  ^bb0(%y: f32, %h: f16):
    %t = arith.truncf %y : f32 to f16
    linalg.yield %t : f16
  }
  memref.dealloc %o : memref<16x4x8xf32>
  return
}

// -----

// f32 operands (the fp32 policy) on CUDA cores: blocks of 64 x 64 (the
// default without mp-gpu-choose-tiles) whose 256 threads copy the panels
// (16 bytes each) and compute a 4 x 4 tile of C each, over K steps of 8: a
// vector.contract per thread (mp-gpu-vector-to-fma makes it FMAs), no mma
// shapes.
// CHECK-LABEL: func.func @simt
// CHECK: scf.forall (%{{.*}}, %{{.*}}) = (0, 0) to (128, 64) step (64, 64)
// CHECK: %[[PA:.*]] = memref.alloc() : memref<64x8xf32, #gpu.address_space<workgroup>>
// CHECK: %[[PB:.*]] = memref.alloc() : memref<8x64xf32, #gpu.address_space<workgroup>>
// CHECK: scf.for %{{.*}} = %c0 to %c96 step %c8
// CHECK: scf.forall (%{{.*}}, %{{.*}}) in (16, 16)
// CHECK: vector.load %arg0{{.*}} : memref<128x96xf32>, vector<4xf32>
// CHECK: vector.store {{.*}}, %[[PA]]
// CHECK: } {mapping = [#gpu.thread<y>, #gpu.thread<x>]}
// CHECK: scf.forall (%{{.*}}, %{{.*}}) in (16, 16)
// CHECK: } {mapping = [#gpu.thread<y>, #gpu.thread<x>]}
// CHECK: scf.forall (%{{.*}}, %{{.*}}) = (0, 0) to (64, 64) step (4, 4)
// CHECK: vector.contract {{.*}} : vector<4x8xf32>, vector<8x4xf32> into vector<4x4xf32>
// CHECK-NOT: vector.contract
// CHECK: } {mapping = [#gpu.thread<y>, #gpu.thread<x>]}
// CHECK: {mapping = [#gpu.block<y>, #gpu.block<x>], mp.gpu_tile = array<i64: 64, 64, 4, 4>}
func.func @simt(%a: memref<128x96xf32>, %b: memref<96x64xf32>, %c: memref<128x64xf32>) {
  linalg.matmul ins(%a, %b : memref<128x96xf32>, memref<96x64xf32>) outs(%c : memref<128x64xf32>)
  return
}

// -----

// C set by an elementwise producer that computes (not one that only loads
// or broadcasts), whose tiles C's size divides and that no epilogue stages:
// C's tile is staged all the same, the copy into it computing the producer
// (before, C was read unset once the producer was gone).
// CHECK-LABEL: func.func private @producer_init_compute
// CHECK-LABEL: func.func @producer_init
// CHECK-NOT: linalg.generic
// CHECK: %[[CT:.*]] = memref.alloc() : memref<64x64xf32, #gpu.address_space<workgroup>>
// CHECK: func.call @producer_init_compute
// CHECK: vector.store %{{.*}}, %[[CT]]
// CHECK: scf.for
// CHECK: vector.contract
// CHECK: vector.load %[[CT]]
// CHECK: return
func.func @producer_init(%x: memref<64x64xf32>, %a: memref<64x64xf16>, %b: memref<64x64xf16>, %out: memref<64x64xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%x : memref<64x64xf32>) outs(%out : memref<64x64xf32>) {
  ^bb0(%v: f32, %o: f32):
    %t = arith.addf %v, %v : f32
    linalg.yield %t : f32
  }
  linalg.matmul ins(%a, %b : memref<64x64xf16>, memref<64x64xf16>) outs(%out : memref<64x64xf32>)
  return
}

// -----

// After the epilogue (a bias), C is written through a subview (a slice
// inserted into it) and then read: the copy of C's tile stores C as well as
// the biased result, the insertion overwriting only its slice (before, C
// was stored only as the biased result and read unset around the slice).
// CHECK-LABEL: func.func @partial_overwrite
// CHECK-SAME: (%{{.*}}: memref<64x64xf16>, %{{.*}}: memref<64x64xf16>, %[[BIAS:.*]]: memref<64x64xf32>, %{{.*}}: memref<32x32xf32>, %[[OUT:.*]]: memref<64x64xf32>)
// CHECK: %[[C:.*]] = memref.alloc() : memref<64x64xf32>
// CHECK: scf.for
// CHECK: vector.contract
// CHECK: } {mapping = [#gpu.warp<y>, #gpu.warp<x>]}
// CHECK: %[[ACC:.*]] = vector.load %{{.*}} : memref<64x64xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// CHECK: vector.store %[[ACC]], %[[C]]
// CHECK: %[[B:.*]] = vector.load %[[BIAS]]
// CHECK: %[[SUM:.*]] = arith.addf %[[ACC]], %[[B]] : vector<4xf32>
// CHECK: vector.store %[[SUM]], %[[OUT]]
// CHECK: memref.copy
// CHECK: return %[[C]]
func.func @partial_overwrite(%a: memref<64x64xf16>, %b: memref<64x64xf16>, %bias: memref<64x64xf32>, %s: memref<32x32xf32>, %out: memref<64x64xf32>) -> memref<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %t = memref.alloc() : memref<64x64xf32>
  linalg.fill ins(%zero : f32) outs(%t : memref<64x64xf32>)
  linalg.matmul ins(%a, %b : memref<64x64xf16>, memref<64x64xf16>) outs(%t : memref<64x64xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%t, %bias : memref<64x64xf32>, memref<64x64xf32>) outs(%out : memref<64x64xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.addf %x, %y : f32
    linalg.yield %r : f32
  }
  %sub = memref.subview %t[32, 32] [32, 32] [1, 1] : memref<64x64xf32> to memref<32x32xf32, strided<[64, 1], offset: 2080>>
  memref.copy %s, %sub : memref<32x32xf32> to memref<32x32xf32, strided<[64, 1], offset: 2080>>
  return %t : memref<64x64xf32>
}

// -----

// Dynamic sizes: the blocks' forall runs to the size (memref.dim). A
// dynamic M or K may end anywhere in a tile, so the tiles of A, B and C are
// masked (element by element, as at the edges of static sizes), and a
// dynamic K steps to its size with one buffer per operand: no copies run
// ahead (how many K steps there are is unknown). A dynamic batch, whose
// tiles are 1, masks nothing: 16-byte copies.
// DOUBLE-LABEL: func.func @dynamic(
// DOUBLE: %[[M:.*]] = memref.dim %arg0, %c0
// DOUBLE: %[[K:.*]] = memref.dim %arg0, %c1
// DOUBLE: scf.forall (%{{.*}}, %{{.*}}) = (0, 0) to (%[[M]], 64) step (64, 64)
// DOUBLE: memref.alloc() : memref<64x32xf16, #gpu.address_space<workgroup>>
// DOUBLE: memref.alloc() : memref<32x64xf16, #gpu.address_space<workgroup>>
// DOUBLE: memref.alloc() : memref<64x64xf32, #gpu.address_space<workgroup>>
// DOUBLE-NOT: mp.gpu_copy
// DOUBLE: scf.for %{{.*}} = %c0 to %[[K]] step %c32
// DOUBLE-NOT: mp.gpu_copy
// DOUBLE: scf.if {{.*}} -> (f16)
// DOUBLE-COUNT-16: vector.contract
// DOUBLE-NOT: mp.gpu_copy
// DOUBLE-LABEL: func.func @dynamic_batch
// DOUBLE: %[[B:.*]] = memref.dim %arg0, %c0
// DOUBLE-NOT: scf.if
// DOUBLE: scf.forall (%{{.*}}, %{{.*}}, %{{.*}}) = (0, 0, 0) to (%[[B]], 64, 64) step (1, 64, 64)
// DOUBLE-NOT: scf.if
// DOUBLE: vector.load %arg0[{{.*}}] {alignment = 16 : i64} : memref<?x64x32xf16>, vector<8xf16>
// DOUBLE-NOT: scf.if
// DOUBLE: return
func.func @dynamic(%a: memref<?x?xf16>, %b: memref<?x64xf16>, %c: memref<?x64xf32>) {
  linalg.matmul ins(%a, %b : memref<?x?xf16>, memref<?x64xf16>) outs(%c : memref<?x64xf32>)
  return
}
func.func @dynamic_batch(%a: memref<?x64x32xf16>, %b: memref<?x32x64xf16>, %c: memref<?x64x64xf32>) {
  linalg.batch_matmul ins(%a, %b : memref<?x64x32xf16>, memref<?x32x64xf16>) outs(%c : memref<?x64x64xf32>)
  return
}
