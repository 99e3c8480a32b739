// RUN: mp-opt %s --split-input-file --mp-gpu-tile-contractions=stages=1 --mp-gpu-map-forall-to-launch --mp-gpu-vector-to-mma --canonicalize | FileCheck %s --implicit-check-not=vector.contract
// RUN: mp-opt %s --split-input-file --mp-gpu-tile-contractions=stages=1 --mp-gpu-map-forall-to-launch --mp-gpu-vector-to-mma --canonicalize | FileCheck %s --check-prefix=LOOP
// RUN: mp-opt %s --split-input-file --mp-gpu-tile-contractions --mp-gpu-async-copies --mp-gpu-map-forall-to-launch --mp-gpu-vector-to-mma --canonicalize | FileCheck %s --check-prefix=ASYNC

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
// Double-buffered (the default) with cp.async: two slots per panel; the
// first step's copies of A and B are issued before the loop and waited
// for after both, then a barrier; in the K loop the next step's copies are
// issued into the other slot (no barrier after them), the warps' ldmatrix
// read this step's slot, and each thread waits for its copies before the
// barrier that ends the step: one barrier a trip.
// ASYNC-LABEL: func.func @matmul_then_relu
// ASYNC: gpu.launch {{.*}} workgroup(%[[A:.*]] : memref<2x64x32xf16, #gpu.address_space<workgroup>>, %[[B:.*]] : memref<2x32x64xf16, #gpu.address_space<workgroup>>)
// ASYNC: nvgpu.device_async_copy %arg0[{{.*}}], %[[A]][%c0,
// ASYNC: nvgpu.device_async_create_group
// ASYNC-NOT: gpu.barrier
// ASYNC: nvgpu.device_async_copy %arg1[{{.*}}], %[[B]][%c0,
// ASYNC: nvgpu.device_async_create_group
// ASYNC-NEXT: nvvm.cp.async.wait.group 0
// ASYNC-NEXT: gpu.barrier
// ASYNC: scf.for
// ASYNC: nvgpu.device_async_copy %arg0[{{.*}}], %[[A]][%[[NEXT:[0-9]+]],
// ASYNC: nvgpu.device_async_create_group
// ASYNC-NOT: gpu.barrier
// ASYNC: nvgpu.device_async_copy %arg1[{{.*}}], %[[B]][%[[NEXT]],
// ASYNC-NOT: gpu.barrier
// ASYNC: nvgpu.ldmatrix %[[A]][%[[THIS:[0-9]+]],
// ASYNC: nvgpu.ldmatrix %[[B]][%[[THIS]],
// ASYNC: nvgpu.mma.sync
// ASYNC: nvvm.cp.async.wait.group 0
// ASYNC-NEXT: gpu.barrier
// ASYNC-NEXT: scf.yield
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

// -----

// An operand read through a reshape: the copies' 16-byte loads of the view,
// folded into loads of the reshaped buffer, keep their alignment (upstream's
// folding drops it, and LLVM then splits each load into scalar ones).
// CHECK-LABEL: func.func @reshaped_operand
// CHECK-NOT: memref.collapse_shape
// CHECK: vector.load %arg0[{{.*}}] {alignment = 16 : i64} : memref<64x1x4x16xf16>, vector<8xf16>
func.func @reshaped_operand(%x: memref<64x1x4x16xf16>, %b: memref<64x64xf16>, %c: memref<64x64xf32>) {
  %a = memref.collapse_shape %x [[0], [1, 2, 3]] : memref<64x1x4x16xf16> into memref<64x64xf16>
  linalg.matmul ins(%a, %b : memref<64x64xf16>, memref<64x64xf16>) outs(%c : memref<64x64xf32>)
  return
}
