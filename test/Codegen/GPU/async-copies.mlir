// RUN: mp-opt %s --split-input-file --mp-gpu-tile-contractions --mp-gpu-async-copies | FileCheck %s --implicit-check-not=mp.gpu_copy --implicit-check-not=nvgpu.device_async_wait
// RUN: mp-opt %s --split-input-file --mp-gpu-tile-contractions=stages=3 --mp-gpu-async-copies | FileCheck %s --check-prefix=THREE --implicit-check-not=mp.gpu_copy --implicit-check-not=nvgpu.device_async_wait
// RUN: mp-opt %s --split-input-file --mp-gpu-tile-contractions=stages=4 | FileCheck %s --check-prefix=CLAMPED
// RUN: mp-opt %s --split-input-file --mp-gpu-tile-contractions='stages=3 reserve-slot' --mp-gpu-async-copies | FileCheck %s --check-prefix=RESERVE
// RUN: not mp-opt %s --split-input-file --mp-gpu-tile-contractions=stages=0 2>&1 | FileCheck %s --check-prefix=ZERO

// The staged panels' copies become cp.async (16 bytes, bypassing L1),
// none waited for where it is issued (upstream's waits go): the first K
// step's, before the loop (A's, then B's), waited for before the loop; the
// next step's, in the loop, waited for at the end of the warps' forall
// (after their Tensor Core work on this step's panels). A barrier follows
// the first wait (mp-gpu-map-forall-to-launch puts none after the copies).
// The markers go.
// CHECK-LABEL: func.func @matmul
// CHECK: scf.forall (%{{.*}}, %{{.*}}) in (2, 64)
// CHECK-COUNT-2: nvgpu.device_async_copy %arg0[{{.*}}], %{{.*}}[{{.*}}], 8 {bypassL1} : memref<128x96xf16> to memref<64x32xf16, strided<[32, 1]>, #gpu.address_space<workgroup>>
// CHECK-NEXT: nvgpu.device_async_create_group
// CHECK: scf.forall (%{{.*}}, %{{.*}}) in (2, 64)
// CHECK-COUNT-2: nvgpu.device_async_copy %arg1
// CHECK-NEXT: nvgpu.device_async_create_group
// CHECK: } {mapping = [#gpu.thread<y>, #gpu.thread<x>]}
// CHECK-NEXT: nvvm.cp.async.wait.group 0
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: scf.for
// CHECK: scf.forall (%{{.*}}, %{{.*}}) in (2, 64)
// CHECK-COUNT-2: nvgpu.device_async_copy %arg0
// CHECK-NEXT: nvgpu.device_async_create_group
// CHECK: } {mapping = [#gpu.thread<y>, #gpu.thread<x>]}
// CHECK: scf.forall (%{{.*}}, %{{.*}}) in (2, 64)
// CHECK-COUNT-2: nvgpu.device_async_copy %arg1
// CHECK-NEXT: nvgpu.device_async_create_group
// CHECK: } {mapping = [#gpu.thread<y>, #gpu.thread<x>]}
// CHECK: scf.forall (%{{.*}}, %{{.*}}) = (0, 0) to (64, 64) step (32, 32)
// CHECK-COUNT-16: vector.contract
// CHECK: nvvm.cp.async.wait.group 0
// CHECK-NEXT: } {mapping = [#gpu.warp<y>, #gpu.warp<x>]}
// CHECK-NEXT: }
// Three stages (K = 96: three steps of 32): three slots per panel; before
// the loop steps 0 and 1 are copied into slots 0 and 1, step by step (A's
// and B's of step 0, then of step 1), and each thread waits for all but
// its last 2 groups (step 1's): step 0 has landed. On trip k the copies of
// step k + 2 (the last step's, 64, again on the last trips) go into slot
// (k / 32 + 2) mod 3, the one trip k - 1 computed on, while the warps
// compute on slot (k / 32) mod 3; at the end of the trip all but the last
// 2 groups have landed: step k + 1's. After the loop every copy has landed.
// THREE-DAG: #[[NEXT:.*]] = affine_map<(d0) -> (d0 + 64, 64)>
// THREE-DAG: #[[FILL:.*]] = affine_map<(d0) -> (d0 floordiv 32 - ((d0 floordiv 32 + 2) floordiv 3) * 3 + 2)>
// THREE-DAG: #[[THIS:.*]] = affine_map<(d0) -> ((d0 floordiv 32) mod 3)>
// THREE-LABEL: func.func @matmul
// THREE: %[[A:.*]] = memref.alloc() : memref<3x64x32xf16, #gpu.address_space<workgroup>>
// THREE: %[[A0:.*]] = memref.subview %[[A]][0, 0, 0] [1, 64, 32]
// THREE: %[[B:.*]] = memref.alloc() : memref<3x32x64xf16, #gpu.address_space<workgroup>>
// THREE: nvgpu.device_async_copy %arg0[{{.*}}], %[[A0]]
// THREE: %[[B0:.*]] = memref.subview %[[B]][0, 0, 0] [1, 32, 64]
// THREE: nvgpu.device_async_copy %arg1[{{.*}}], %[[B0]]
// THREE: %[[A1:.*]] = memref.subview %[[A]][1, 0, 0] [1, 64, 32]
// THREE: nvgpu.device_async_copy %arg0[{{.*}}], %[[A1]]
// THREE: %[[B1:.*]] = memref.subview %[[B]][1, 0, 0] [1, 32, 64]
// THREE: nvgpu.device_async_copy %arg1[{{.*}}], %[[B1]]
// THREE: nvgpu.device_async_create_group
// THREE-NEXT: } {mapping = [#gpu.thread<y>, #gpu.thread<x>]}
// THREE-NEXT: nvvm.cp.async.wait.group 2
// THREE-NEXT: gpu.barrier
// THREE-NEXT: scf.for %[[K:.*]] = %c0 to %c96 step %c32 {
// THREE-NEXT: %[[STEP:.*]] = affine.min #[[NEXT]](%[[K]])
// THREE-NEXT: %[[SLOT:.*]] = affine.apply #[[FILL]](%[[K]])
// THREE-NEXT: %[[AN:.*]] = memref.subview %[[A]][%[[SLOT]], 0, 0]
// THREE: nvgpu.device_async_copy %arg0[{{.*}}], %[[AN]]
// THREE: %[[CUR:.*]] = affine.apply #[[THIS]](%[[K]])
// THREE-NEXT: %[[AC:.*]] = memref.subview %[[A]][%[[CUR]], 0, 0]
// THREE: nvgpu.device_async_copy %arg1
// THREE: %[[BC:.*]] = memref.subview %[[B]][%{{.*}}, 0, 0]
// THREE: scf.forall (%{{.*}}, %{{.*}}) = (0, 0) to (64, 64) step (32, 32)
// THREE: memref.subview %[[AC]]
// THREE: memref.subview %[[BC]]
// THREE: nvvm.cp.async.wait.group 2
// THREE-NEXT: } {mapping = [#gpu.warp<y>, #gpu.warp<x>]}
// THREE-NEXT: }
// THREE-NEXT: nvvm.cp.async.wait.group 0
// reserve-slot: of 3 slots the trips' copies leave the previous trip's
// alone (wgmma kept in flight may still read it): one step copied before
// the loop, trip k copying step k + 1 into slot (k / 32 + 1) mod 3, the one
// trip k - 2 computed on; every wait then leaves nothing in flight.
// RESERVE-DAG: #[[NEXT:.*]] = affine_map<(d0) -> (d0 + 32, 64)>
// RESERVE-DAG: #[[FILL:.*]] = affine_map<(d0) -> (d0 floordiv 32 - ((d0 floordiv 32 + 1) floordiv 3) * 3 + 1)>
// RESERVE-DAG: #[[THIS:.*]] = affine_map<(d0) -> ((d0 floordiv 32) mod 3)>
// RESERVE-LABEL: func.func @matmul
// RESERVE: %[[A:.*]] = memref.alloc() : memref<3x64x32xf16, #gpu.address_space<workgroup>>
// RESERVE-COUNT-2: nvgpu.device_async_create_group
// RESERVE-NOT: nvgpu.device_async_copy
// RESERVE: nvvm.cp.async.wait.group 0
// RESERVE-NEXT: gpu.barrier
// RESERVE-NEXT: scf.for %[[K:.*]] = %c0 to %c96 step %c32 {
// RESERVE-NEXT: affine.min #[[NEXT]](%[[K]])
// RESERVE-NEXT: %[[SLOT:.*]] = affine.apply #[[FILL]](%[[K]])
// RESERVE-NEXT: memref.subview %[[A]][%[[SLOT]], 0, 0]
// RESERVE: affine.apply #[[THIS]](%[[K]])
// RESERVE: nvvm.cp.async.wait.group 0
// RESERVE-NEXT: } {mapping = [#gpu.warp<y>, #gpu.warp<x>]}
// RESERVE-NEXT: }
// RESERVE-NOT: nvvm.cp.async.wait.group
// RESERVE: return
// No more slots than K steps (3).
// CLAMPED-LABEL: func.func @matmul
// CLAMPED: memref.alloc() : memref<3x64x32xf16, #gpu.address_space<workgroup>>
// CLAMPED: memref.alloc() : memref<3x32x64xf16, #gpu.address_space<workgroup>>
// ZERO: error: mp-gpu-tile-contractions: stages=0 is invalid: expected 1 (panels single-buffered) or more
func.func @matmul(%a: memref<128x96xf16>, %b: memref<96x64xf16>, %c: memref<128x64xf32>) {
  linalg.matmul ins(%a, %b : memref<128x96xf16>, memref<96x64xf16>) outs(%c : memref<128x64xf32>)
  return
}

// -----

// A panel whose copies round f32 to f16 (a fused cast) stays one buffer
// copied in place; B, copied unchanged, is staged and async: with three
// stages one group a step, so 1 in flight at each wait.
// CHECK-LABEL: func.func @cast_a
// CHECK: memref.alloc() : memref<2x32x64xf16, #gpu.address_space<workgroup>>
// CHECK: nvgpu.device_async_copy %arg1
// CHECK: nvvm.cp.async.wait.group 0
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: scf.for
// CHECK: arith.truncf %{{.*}} : vector<4xf32> to vector<4xf16>
// CHECK: vector.store
// CHECK: nvgpu.device_async_copy %arg1
// CHECK: nvvm.cp.async.wait.group 0
// THREE-LABEL: func.func @cast_a
// THREE: memref.alloc() : memref<64x32xf16, #gpu.address_space<workgroup>>
// THREE: memref.alloc() : memref<3x32x64xf16, #gpu.address_space<workgroup>>
// THREE: nvvm.cp.async.wait.group 1
// THREE-NEXT: gpu.barrier
// THREE-NEXT: scf.for
// THREE: arith.truncf %{{.*}} : vector<4xf32> to vector<4xf16>
// THREE: nvvm.cp.async.wait.group 1
func.func @cast_a(%a32: memref<128x96xf32>, %b: memref<96x64xf16>, %c: memref<128x64xf32>) {
  %a = memref.alloc() : memref<128x96xf16>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a32 : memref<128x96xf32>) outs(%a : memref<128x96xf16>) {
  ^bb0(%x: f32, %o: f16):
    %t = arith.truncf %x : f32 to f16
    linalg.yield %t : f16
  }
  linalg.matmul ins(%a, %b : memref<128x96xf16>, memref<96x64xf16>) outs(%c : memref<128x64xf32>)
  memref.dealloc %a : memref<128x96xf16>
  return
}
