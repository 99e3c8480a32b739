// RUN: mp-opt %s --split-input-file --mp-gpu-tile-contractions --mp-gpu-async-copies | FileCheck %s --implicit-check-not=mp.gpu_copy

// The double-buffered panels' copies become cp.async (16 bytes, bypassing
// L1): the first K step's, before the loop, waited for at once; the next
// step's, in the loop, waited for at the end of the warps' forall (after
// their Tensor Core work on this step's panels). The markers go.
// CHECK-LABEL: func.func @matmul
// CHECK: scf.forall (%{{.*}}, %{{.*}}) in (2, 64)
// CHECK-COUNT-2: nvgpu.device_async_copy %arg0[{{.*}}], %{{.*}}[{{.*}}], 8 {bypassL1} : memref<128x96xf16> to memref<64x32xf16, strided<[32, 1]>, #gpu.address_space<workgroup>>
// CHECK: %[[G:.*]] = nvgpu.device_async_create_group
// CHECK-NEXT: nvgpu.device_async_wait %[[G]]
// CHECK: scf.for
// CHECK: scf.forall (%{{.*}}, %{{.*}}) in (2, 64)
// CHECK-COUNT-2: nvgpu.device_async_copy %arg0
// CHECK-NEXT: nvgpu.device_async_create_group
// CHECK-NOT: nvgpu.device_async_wait
// CHECK: } {mapping = [#gpu.thread<y>, #gpu.thread<x>]}
// CHECK: scf.forall (%{{.*}}, %{{.*}}) in (2, 64)
// CHECK-COUNT-2: nvgpu.device_async_copy %arg1
// CHECK-NEXT: nvgpu.device_async_create_group
// CHECK-NOT: nvgpu.device_async_wait
// CHECK: } {mapping = [#gpu.thread<y>, #gpu.thread<x>]}
// CHECK: scf.forall (%{{.*}}, %{{.*}}) = (0, 0) to (64, 64) step (32, 32)
// CHECK-COUNT-16: vector.contract
// CHECK: nvvm.cp.async.wait.group 0
// CHECK-NEXT: } {mapping = [#gpu.warp<y>, #gpu.warp<x>]}
// CHECK-NEXT: }
func.func @matmul(%a: memref<128x96xf16>, %b: memref<96x64xf16>, %c: memref<128x64xf32>) {
  linalg.matmul ins(%a, %b : memref<128x96xf16>, memref<96x64xf16>) outs(%c : memref<128x64xf32>)
  return
}

// -----

// A panel whose copies round f32 to f16 (a fused cast) stays one buffer
// copied in place; B, copied unchanged, is double-buffered and async.
// CHECK-LABEL: func.func @cast_a
// CHECK: memref.alloc() : memref<2x32x64xf16, #gpu.address_space<workgroup>>
// CHECK: nvgpu.device_async_copy %arg1
// CHECK: scf.for
// CHECK: arith.truncf %{{.*}} : vector<4xf32> to vector<4xf16>
// CHECK: vector.store
// CHECK: nvgpu.device_async_copy %arg1
// CHECK: nvvm.cp.async.wait.group 0
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
