// RUN: mp-opt %s --split-input-file --mp-gpu-tile-contractions=double-buffer=false --mp-gpu-map-forall-to-launch --mp-gpu-vector-to-mma --canonicalize | FileCheck %s --implicit-check-not=vector.contract
// RUN: mp-opt %s --split-input-file --mp-gpu-tile-contractions=double-buffer=false --mp-gpu-map-forall-to-launch --mp-gpu-vector-to-mma --canonicalize | FileCheck %s --check-prefix=LOOP
// RUN: mp-opt %s --split-input-file --mp-gpu-tile-contractions --mp-gpu-async-copies --mp-gpu-map-forall-to-launch --mp-gpu-vector-to-mma --canonicalize | FileCheck %s --check-prefix=ASYNC
// RUN: mp-opt %S/Inputs/wgmma_gemms.mlir --split-input-file --mp-gpu-tile-contractions='warp-m=16 warp-n=64' --mp-gpu-async-copies --mp-gpu-map-forall-to-launch --mp-gpu-vector-to-mma=wgmma --mp-gpu-swizzle-panels --canonicalize --cse -o %t.wgmma.mlir
// RUN: FileCheck %s --check-prefix=WGMMA --input-file=%t.wgmma.mlir --implicit-check-not=nvgpu.mma.sync --implicit-check-not=nvgpu.ldmatrix
// RUN: %python %S/Inputs/wgmma_layout.py < %t.wgmma.mlir | FileCheck %s --check-prefix=LAYOUT
// RUN: mp-opt %S/Inputs/wgmma_gemms.mlir --split-input-file --mp-gpu-tile-contractions='tile-n=32 warp-m=16 warp-n=32' --mp-gpu-async-copies --mp-gpu-map-forall-to-launch --mp-gpu-vector-to-mma=wgmma --mp-gpu-swizzle-panels --canonicalize --cse | %python %S/Inputs/wgmma_layout.py | FileCheck %s --check-prefix=LAYOUT32
// RUN: mp-opt %S/Inputs/wgmma_gemms.mlir --split-input-file --mp-gpu-tile-contractions --mp-gpu-async-copies --mp-gpu-map-forall-to-launch --mp-gpu-vector-to-mma=wgmma --canonicalize | FileCheck %s --check-prefix=NOT-WARPGROUP --implicit-check-not=wgmma

// The tiled stage's m16n8k16 contracts become mma.sync with f32
// accumulators (2x4x2 per warp and K step of 32) reading their operands
// from the staged panels with ldmatrix (B, K x N, transposed by it); the
// accumulators stay in registers across K: read before the K loop, carried
// by it, written after it. The generic outside stays.
// CHECK-LABEL: func.func @matmul_then_relu
// CHECK: gpu.launch {{.*}} workgroup(%[[A:.*]] : memref<64x32xf16, #gpu.address_space<workgroup>>, %[[B:.*]] : memref<32x64xf16, #gpu.address_space<workgroup>>)
// CHECK: scf.for
// CHECK: vector.store %{{.*}}, %[[A]]
// CHECK: gpu.barrier
// CHECK: vector.store %{{.*}}, %[[B]]
// CHECK: gpu.barrier
// CHECK: nvgpu.ldmatrix %[[A]][{{.*}}] {numTiles = 4 : i32, transpose = false}
// CHECK: nvgpu.ldmatrix %[[B]][{{.*}}] {numTiles = 2 : i32, transpose = true}
// CHECK-COUNT-16: nvgpu.mma.sync({{.*}}) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
// CHECK: gpu.barrier
// CHECK: scf.yield
// CHECK: linalg.generic
// CHECK: arith.maximumf
// LOOP-LABEL: func.func @matmul_then_relu
// LOOP: vector.load %arg2[
// LOOP: scf.for {{.*}} iter_args
// LOOP-NOT: %arg2[
// LOOP: scf.yield
// LOOP: vector.store %{{.*}}, %arg2[
// Double-buffered (the default) with cp.async: two slots per panel; in
// the K loop the next step's copies are issued into the other slot, the
// warps' ldmatrix read this step's slot, and each thread waits for its
// copies before the barrier that ends the step.
// ASYNC-LABEL: func.func @matmul_then_relu
// ASYNC: gpu.launch {{.*}} workgroup(%[[A:.*]] : memref<2x64x32xf16, #gpu.address_space<workgroup>>, %[[B:.*]] : memref<2x32x64xf16, #gpu.address_space<workgroup>>)
// ASYNC: nvgpu.device_async_copy %arg0[{{.*}}], %[[A]][%c0,
// ASYNC: nvgpu.device_async_wait
// ASYNC: scf.for
// ASYNC: nvgpu.device_async_copy %arg0[{{.*}}], %[[A]][%[[NEXT:[0-9]+]],
// ASYNC: nvgpu.device_async_create_group
// ASYNC-NEXT: gpu.barrier
// ASYNC: nvgpu.device_async_copy %arg1[{{.*}}], %[[B]][%[[NEXT]],
// ASYNC: nvgpu.ldmatrix %[[A]][%[[THIS:[0-9]+]],
// ASYNC: nvgpu.ldmatrix %[[B]][%[[THIS]],
// ASYNC: nvgpu.mma.sync
// ASYNC: nvvm.cp.async.wait.group 0
// ASYNC-NEXT: gpu.barrier
// ASYNC-NEXT: scf.yield
// wgmma (sm_90a): a block of one warpgroup whose 4 warps own 16 rows and
// all 64 columns each computes a K step of 32 as two wgmma.mma_async
// m64n64k16 on the whole panels, between a wgmma.fence and a commit and
// wait; the mma.syncs and their ldmatrix go. Each descriptor is the
// panel slot's shared address >> 4 in bits 0-13 with constant fields: A
// (64x32 f16, K-major) 64-byte swizzle (2 << 62), 512 bytes between groups
// of 8 rows (32 << 32), 16 unused (1 << 16); B (32x64, N-major, read
// transposed: layout row) 128-byte swizzle (1 << 62), 1024 bytes (64 << 32
// and 64 << 16). The second K slice starts 32 bytes along A's rows and 16
// rows (2048 bytes) down B. The panels' writes are made visible to wgmma
// (fence.proxy.async) before every barrier.
// WGMMA-LABEL: func.func @ab
// WGMMA: gpu.launch {{.*}} threads({{.*}}) in ({{.*}} = %c32, {{.*}} = %c4, {{.*}} = %c1) workgroup(%[[A:.*]] : memref<2x64x32xf16, #gpu.address_space<workgroup>>, %[[B:.*]] : memref<2x32x64xf16, #gpu.address_space<workgroup>>)
// WGMMA: nvgpu.device_async_wait
// WGMMA-NEXT: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// WGMMA-NEXT: gpu.barrier
// WGMMA: scf.for
// WGMMA: %[[PA:.*]] = memref.extract_aligned_pointer_as_index %[[A]]
// WGMMA: %[[PB:.*]] = memref.extract_aligned_pointer_as_index %[[B]]
// WGMMA: nvvm.wgmma.fence.aligned
// WGMMA: %[[DA0:.*]] = arith.ori %{{.*}}, %c-9223371899415756800_i64 : i64
// WGMMA: %[[DB0:.*]] = arith.ori %{{.*}}, %c4611686293309489152_i64 : i64
// WGMMA: %[[ACC:.*]] = nvvm.wgmma.mma_async %[[DA0]], %[[DB0]], %{{.*}}, <m = 64, n = 64, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <row>] : !llvm.struct<({{(f32, )+}}f32)>
// WGMMA: arith.addi %{{.*}}, %c32_i64 : i64
// WGMMA: %[[DA1:.*]] = arith.ori %{{.*}}, %c-9223371899415756800_i64 : i64
// WGMMA: arith.addi %{{.*}}, %c2048_i64 : i64
// WGMMA: %[[DB1:.*]] = arith.ori %{{.*}}, %c4611686293309489152_i64 : i64
// WGMMA: nvvm.wgmma.mma_async %[[DA1]], %[[DB1]], %[[ACC]], <m = 64, n = 64, k = 16>
// WGMMA-NEXT: nvvm.wgmma.commit.group.sync.aligned
// WGMMA-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// WGMMA: nvvm.cp.async.wait.group 0
// WGMMA-NEXT: nvvm.fence.proxy
// WGMMA-NEXT: gpu.barrier
// WGMMA-NEXT: scf.yield
// A^T x B: A's panel is K x M, read M-major (layout col) with 128-byte rows.
// WGMMA-LABEL: func.func @atb
// WGMMA: nvvm.wgmma.mma_async {{.*}} A[<f16>, <one>, <col>], B[<f16>, <one>, <row>]
// WGMMA: nvvm.wgmma.mma_async {{.*}} A[<f16>, <one>, <col>], B[<f16>, <one>, <row>]
// A x B^T: B's panel is N x K, read K-major (layout col).
// WGMMA-LABEL: func.func @abt
// WGMMA: nvvm.wgmma.mma_async {{.*}} A[<f16>, <one>, <row>], B[<f16>, <one>, <col>]
// WGMMA: nvvm.wgmma.mma_async {{.*}} A[<f16>, <one>, <row>], B[<f16>, <one>, <col>]
// K = 16: one K step, one wgmma; A's rows of 32 bytes take the 32-byte
// swizzle (3 << 62), 256 bytes between groups of 8 rows.
// WGMMA-LABEL: func.func @k16
// WGMMA: arith.ori %{{.*}}, %c-4611685949707845632_i64 : i64
// WGMMA: nvvm.wgmma.mma_async
// WGMMA-NOT: nvvm.wgmma.mma_async
// WGMMA-LABEL: func.func @bf16
// WGMMA-COUNT-2: nvvm.wgmma.mma_async {{.*}} A[<bf16>, <one>, <row>], B[<bf16>, <one>, <row>]
// Read as the PTX ISA defines the canonical layouts of the swizzle modes,
// the descriptors address exactly the elements of each K slice in the
// panels as mp-gpu-swizzle-panels lays them out (wgmma_layout.py).
// LAYOUT: ab: wgmma m64n64k16 #0: A K-major, B N-major, tiles match
// LAYOUT-NEXT: ab: wgmma m64n64k16 #1: A K-major, B N-major, tiles match
// LAYOUT-NEXT: atb: wgmma m64n64k16 #0: A M-major, B N-major, tiles match
// LAYOUT-NEXT: atb: wgmma m64n64k16 #1: A M-major, B N-major, tiles match
// LAYOUT-NEXT: abt: wgmma m64n64k16 #0: A K-major, B K-major, tiles match
// LAYOUT-NEXT: abt: wgmma m64n64k16 #1: A K-major, B K-major, tiles match
// LAYOUT-NEXT: k16: wgmma m64n64k16 #0: A K-major, B N-major, tiles match
// LAYOUT-NEXT: bf16: wgmma m64n64k16 #0: A K-major, B N-major, tiles match
// LAYOUT-NEXT: bf16: wgmma m64n64k16 #1: A K-major, B N-major, tiles match
// 32 columns per block: B's rows of 64 bytes take the 64-byte swizzle.
// LAYOUT32: ab: wgmma m64n32k16 #0: A K-major, B N-major, tiles match
// LAYOUT32: bf16: wgmma m64n32k16 #1: A K-major, B N-major, tiles match
// Blocks of 2x2 warps of 32x32 (the default tiles) are not one warpgroup's
// wgmma: they keep mma.sync.
// NOT-WARPGROUP-LABEL: func.func @ab
// NOT-WARPGROUP: nvgpu.mma.sync
func.func @matmul_then_relu(%a: memref<64x64xf16>, %b: memref<64x64xf16>, %c: memref<64x64xf32>) {
  linalg.matmul ins(%a, %b : memref<64x64xf16>, memref<64x64xf16>) outs(%c : memref<64x64xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%c : memref<64x64xf32>) {
  ^bb0(%x: f32):
    %zero = arith.constant 0.0 : f32
    %r = arith.maximumf %x, %zero : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// bf16 (no upstream path): the operand reads are re-typed as f16 reads of
// the same bits, and each tile becomes nvvm.mma.sync of type bf16 on the
// 32-bit registers (4 of A, 2 of B) with the f32 accumulator.
// CHECK-LABEL: func.func @bf16_matmul
// CHECK: gpu.launch
// CHECK: builtin.unrealized_conversion_cast {{.*}} : memref<{{.*}}xbf16, #gpu.address_space<workgroup>> to memref<{{.*}}xf16, #gpu.address_space<workgroup>>
// CHECK: nvgpu.ldmatrix
// CHECK-COUNT-16: nvvm.mma.sync A[{{.*}}, {{.*}}, {{.*}}, {{.*}}] B[{{.*}}, {{.*}}] C[{{.*}}, {{.*}}, {{.*}}, {{.*}}] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NOT: nvgpu.mma.sync
// CHECK: return
func.func @bf16_matmul(%a: memref<64x32xbf16>, %b: memref<32x64xbf16>, %c: memref<64x64xf32>) {
  linalg.matmul ins(%a, %b : memref<64x32xbf16>, memref<32x64xbf16>) outs(%c : memref<64x64xf32>)
  return
}

// -----

// C set by a fill: the block's C tile is staged in workgroup memory and
// copied out after the K loop by another mapping of threads to elements.
// The accumulators' writes into it, hoisted out of the loop past the
// barrier that ends each K step, get a barrier of their own before the
// copy reads other warps' elements (found by an H200: without it a 1024^3
// GEMM was 80% wrong while the emulation, which runs threads in sequence,
// matched).
// CHECK-LABEL: func.func @filled
// CHECK: gpu.launch {{.*}} workgroup({{.*}}, %[[CT:.*]] : memref<64x64xf32, #gpu.address_space<workgroup>>)
// CHECK: scf.for
// CHECK: nvgpu.mma.sync
// CHECK: gpu.barrier
// CHECK-NEXT: scf.yield
// CHECK-COUNT-16: vector.store %{{.*}}, %[[CT]][{{.*}}] : memref<64x64xf32, #gpu.address_space<workgroup>>, vector<2xf32>
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: vector.load %[[CT]]
// CHECK-NOT: vector.store %{{.*}}, %[[CT]]
// CHECK: gpu.terminator
func.func @filled(%a: memref<64x64xf16>, %b: memref<64x64xf16>, %c: memref<64x64xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<64x64xf32>)
  linalg.matmul ins(%a, %b : memref<64x64xf16>, memref<64x64xf16>) outs(%c : memref<64x64xf32>)
  return
}
