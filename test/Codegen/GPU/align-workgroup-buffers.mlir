// RUN: mp-opt %s --pass-pipeline='builtin.module(gpu.module(mp-gpu-align-workgroup-buffers))' | FileCheck %s
// RUN: mp-opt %s --pass-pipeline='builtin.module(gpu.module(mp-gpu-align-workgroup-buffers{alignment=64}))' | FileCheck %s --check-prefix=WIDE
// RUN: not mp-opt %s --pass-pipeline='builtin.module(gpu.module(mp-gpu-align-workgroup-buffers{alignment=24}))' 2>&1 | FileCheck %s --check-prefix=BAD

// Workgroup attributions of outlined kernels get llvm.align = 16 (the staged
// GEMM panels take 16-byte stores and ldmatrix); a larger alignment stays.
// The NVVM lowering turns it into the shared array's alignment.
// CHECK: workgroup(%{{.*}} : memref<64x32xf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %{{.*}} : memref<32x64xf16, #gpu.address_space<workgroup>> {llvm.align = 128 : i64})
// WIDE: workgroup(%{{.*}} : memref<64x32xf16, #gpu.address_space<workgroup>> {llvm.align = 64 : i64}, %{{.*}} : memref<32x64xf16, #gpu.address_space<workgroup>> {llvm.align = 128 : i64})
// A kernel that runs wgmma gets 1024 bytes (its descriptors take the
// panels' swizzle patterns to start there); a larger alignment stays.
// CHECK: gpu.func @w(%{{.*}}: memref<2xf16>) workgroup(%{{.*}} : memref<64x16xf16, #gpu.address_space<workgroup>> {llvm.align = 1024 : i64}, %{{.*}} : memref<16x8xf16, #gpu.address_space<workgroup>> {llvm.align = 2048 : i64})
// WIDE: gpu.func @w(%{{.*}}: memref<2xf16>) workgroup(%{{.*}} : memref<64x16xf16, #gpu.address_space<workgroup>> {llvm.align = 1024 : i64}, %{{.*}} : memref<16x8xf16, #gpu.address_space<workgroup>> {llvm.align = 2048 : i64})
// BAD: error: mp-gpu-align-workgroup-buffers: alignment=24 is invalid: expected a power of two
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%out: memref<2xf16>) workgroup(%a : memref<64x32xf16, #gpu.address_space<workgroup>>, %b : memref<32x64xf16, #gpu.address_space<workgroup>> {llvm.align = 128 : i64}) kernel {
      %c0 = arith.constant 0 : index
      %v = memref.load %a[%c0, %c0] : memref<64x32xf16, #gpu.address_space<workgroup>>
      memref.store %v, %out[%c0] : memref<2xf16>
      gpu.return
    }
    gpu.func @w(%out: memref<2xf16>) workgroup(%a : memref<64x16xf16, #gpu.address_space<workgroup>>, %b : memref<16x8xf16, #gpu.address_space<workgroup>> {llvm.align = 2048 : i64}) kernel {
      %d = llvm.mlir.constant(0 : i64) : i64
      %acc = llvm.mlir.poison : !llvm.struct<(f32, f32, f32, f32)>
      %r = nvvm.wgmma.mma_async %d, %d, %acc, <m = 64, n = 8, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
      gpu.return
    }
  }
}
