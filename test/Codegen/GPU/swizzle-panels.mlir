// RUN: mp-opt %s --split-input-file --mp-gpu-swizzle-panels | FileCheck %s
// RUN: mp-opt %s --split-input-file --mp-gpu-tile-contractions --mp-gpu-async-copies --mp-gpu-map-forall-to-launch --mp-gpu-vector-to-mma --gpu-kernel-outlining --mp-gpu-swizzle-panels | FileCheck %s --check-prefix=GEMM

// Every access of a panel (a workgroup buffer ldmatrix reads) gets the same
// permutation of its row's 16-byte chunks: the last index XOR 8 x ((row /
// rows per 128-byte line) mod min(chunks, 8)). Rows of 32 f16 (64 bytes,
// two per line, 4 chunks): ((row floordiv 2) mod 4) * 8; rows of 64 bf16
// (128 bytes, 8 chunks): (row mod 8) * 8, also for the ldmatrix reading
// the bf16 panel through its f16 view. A buffer with a view of its own
// (the subview) is left alone.
// CHECK-DAG: #[[HALF:.*]] = affine_map<(d0) -> (((d0 floordiv 2) mod 4) * 8)>
// CHECK-DAG: #[[FULL:.*]] = affine_map<(d0) -> ((d0 mod 8) * 8)>
// CHECK-LABEL: gpu.func @panels
// CHECK: workgroup(%[[A:.*]] : memref<2x64x32xf16, #gpu.address_space<workgroup>>, %[[B:.*]] : memref<32x64xbf16, #gpu.address_space<workgroup>>, %[[O:.*]] : memref<64x32xf16, #gpu.address_space<workgroup>>)
// CHECK: %[[P0:.*]] = affine.apply #[[HALF]](%[[TX:[^)]*]])
// CHECK: %[[C0:.*]] = arith.xori %[[TY:[^,]*]], %[[P0]] : index
// CHECK: nvgpu.device_async_copy %{{.*}}[%[[TX]], %[[TY]]], %[[A]][%{{.*}}, %[[TX]], %[[C0]]], 8
// CHECK: %[[P1:.*]] = affine.apply #[[HALF]](%[[TY]])
// CHECK: %[[C1:.*]] = arith.xori %[[TX]], %[[P1]] : index
// CHECK: memref.store %{{.*}}, %[[A]][%{{.*}}, %[[TY]], %[[C1]]]
// CHECK: %[[P2:.*]] = affine.apply #[[HALF]](%[[TX]])
// CHECK: %[[C2:.*]] = arith.xori %[[TY]], %[[P2]] : index
// CHECK: nvgpu.ldmatrix %[[A]][%{{.*}}, %[[TX]], %[[C2]]]
// CHECK: %[[P3:.*]] = affine.apply #[[FULL]](%[[TY]])
// CHECK: %[[C3:.*]] = arith.xori %[[TX]], %[[P3]] : index
// CHECK: vector.store %{{.*}}, %[[B]][%[[TY]], %[[C3]]]
// CHECK: %[[VIEW:.*]] = builtin.unrealized_conversion_cast %[[B]]
// CHECK: %[[P4:.*]] = affine.apply #[[FULL]](%[[TX]])
// CHECK: %[[C4:.*]] = arith.xori %[[TY]], %[[P4]] : index
// CHECK: nvgpu.ldmatrix %[[VIEW]][%[[TX]], %[[C4]]]
// CHECK-NOT: arith.xori
// CHECK: vector.store %{{.*}}, %[[O]][%[[TX]], %[[TY]]]
// CHECK: nvgpu.ldmatrix %[[O]][%[[TX]], %[[TY]]]
gpu.module @kernels {
  gpu.func @panels(%g: memref<64x64xf16>, %v: vector<8xf16>, %s: f16)
      workgroup(%a : memref<2x64x32xf16, #gpu.address_space<workgroup>>,
                %b : memref<32x64xbf16, #gpu.address_space<workgroup>>,
                %other : memref<64x32xf16, #gpu.address_space<workgroup>>) kernel {
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    %tx = gpu.thread_id x
    %ty = gpu.thread_id y
    %t = nvgpu.device_async_copy %g[%tx, %ty], %a[%c0, %tx, %ty], 8 : memref<64x64xf16> to memref<2x64x32xf16, #gpu.address_space<workgroup>>
    memref.store %s, %a[%c1, %ty, %tx] : memref<2x64x32xf16, #gpu.address_space<workgroup>>
    %fa = nvgpu.ldmatrix %a[%c0, %tx, %ty] {numTiles = 4 : i32, transpose = false} : memref<2x64x32xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
    %vb = arith.bitcast %v : vector<8xf16> to vector<8xbf16>
    vector.store %vb, %b[%ty, %tx] : memref<32x64xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
    %view = builtin.unrealized_conversion_cast %b : memref<32x64xbf16, #gpu.address_space<workgroup>> to memref<32x64xf16, #gpu.address_space<workgroup>>
    %fb = nvgpu.ldmatrix %view[%tx, %ty] {numTiles = 2 : i32, transpose = true} : memref<32x64xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
    vector.store %v, %other[%tx, %ty] : memref<64x32xf16, #gpu.address_space<workgroup>>, vector<8xf16>
    %sub = memref.subview %other[0, 0] [16, 32] [1, 1] : memref<64x32xf16, #gpu.address_space<workgroup>> to memref<16x32xf16, strided<[32, 1]>, #gpu.address_space<workgroup>>
    %fo = nvgpu.ldmatrix %other[%tx, %ty] {numTiles = 4 : i32, transpose = false} : memref<64x32xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
    gpu.return
  }
}

// -----

// The tiled stage of a double-buffered matmul (both panels, each of their
// cp.async copies before and in the K loop, each ldmatrix).
// GEMM-LABEL: gpu.func @gemm_kernel
// GEMM: workgroup(%[[A:.*]] : memref<2x64x32xf16, #gpu.address_space<workgroup>>, %[[B:.*]] : memref<2x32x64xf16, #gpu.address_space<workgroup>>)
// GEMM-COUNT-2: %[[X:.*]] = arith.xori %{{.*}} : index{{[[:space:]]*}}%{{.*}} = nvgpu.device_async_copy {{.*}}, %[[A]][%{{.*}}, %{{.*}}, %[[X]]], 8
// GEMM-COUNT-2: %[[X:.*]] = arith.xori %{{.*}} : index{{[[:space:]]*}}%{{.*}} = nvgpu.device_async_copy {{.*}}, %[[B]][%{{.*}}, %{{.*}}, %[[X]]], 8
// GEMM: scf.for
// GEMM-COUNT-2: %[[X:.*]] = arith.xori %{{.*}} : index{{[[:space:]]*}}%{{.*}} = nvgpu.device_async_copy {{.*}}, %[[A]][%{{.*}}, %{{.*}}, %[[X]]], 8
// GEMM-COUNT-2: %[[X:.*]] = arith.xori %{{.*}} : index{{[[:space:]]*}}%{{.*}} = nvgpu.device_async_copy {{.*}}, %[[B]][%{{.*}}, %{{.*}}, %[[X]]], 8
// GEMM-COUNT-4: %[[X:.*]] = arith.xori %{{.*}} : index{{[[:space:]]*}}%{{.*}} = nvgpu.ldmatrix %[[A]][%{{.*}}, %{{.*}}, %[[X]]]
// GEMM-COUNT-16: %[[X:.*]] = arith.xori %{{.*}} : index{{[[:space:]]*}}%{{.*}} = nvgpu.ldmatrix %[[B]][%{{.*}}, %{{.*}}, %[[X]]]
// GEMM-NOT: nvgpu.ldmatrix
func.func @gemm(%a: memref<64x64xf16>, %b: memref<64x64xf16>, %c: memref<64x64xf32>) {
  linalg.matmul ins(%a, %b : memref<64x64xf16>, memref<64x64xf16>) outs(%c : memref<64x64xf32>)
  return
}

// -----

// A panel that wgmma reads (a descriptor starts from its address, no
// ldmatrix) is swizzled as well; the address stays.
// CHECK-LABEL: gpu.func @wgmma_panel
// CHECK: workgroup(%[[P:.*]] : memref<64x32xf16, #gpu.address_space<workgroup>>)
// CHECK: %[[X:.*]] = arith.xori
// CHECK: vector.store %{{.*}}, %[[P]][%{{.*}}, %[[X]]]
// CHECK: memref.extract_aligned_pointer_as_index %[[P]]
gpu.module @kernels {
  gpu.func @wgmma_panel(%v: vector<8xf16>, %r: memref<index>)
      workgroup(%p : memref<64x32xf16, #gpu.address_space<workgroup>>) kernel {
    %tx = gpu.thread_id x
    %ty = gpu.thread_id y
    vector.store %v, %p[%tx, %ty] : memref<64x32xf16, #gpu.address_space<workgroup>>, vector<8xf16>
    %address = memref.extract_aligned_pointer_as_index %p : memref<64x32xf16, #gpu.address_space<workgroup>> -> index
    memref.store %address, %r[] : memref<index>
    gpu.return
  }
}
