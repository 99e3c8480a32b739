// RUN: mp-opt %s --split-input-file --mp-gpu-tile-contractions --mp-gpu-map-forall-to-launch --mp-gpu-vector-to-fma | FileCheck %s

// An f32 GEMM's tiled stage in its launch: each thread's 4 x 4 accumulator
// tile is carried by the K loop (read once before it from C, written once
// after it), and per K step of 8 its vector.contract is 8 outer products of
// a column of its 4 rows of A and a row of its 4 columns of B, in K's
// order: 32 vector.fma on rows of 4. The thread's rows of A and B are
// 16-byte-aligned vector loads from the panels (4 of 8 elements, 8 of 4),
// as are its rows of C.
// CHECK-LABEL: func.func @simt
// CHECK: gpu.launch
// CHECK-COUNT-4: vector.load %arg2[{{.*}}] {alignment = 16 : i64} : memref<128x64xf32>, vector<4xf32>
// CHECK: scf.for {{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (vector<4x4xf32>)
// CHECK-NOT: vector.contract
// CHECK-COUNT-4: vector.load %{{.*}} {alignment = 16 : i64} : memref<2x64x8xf32, #gpu.address_space<workgroup>>, vector<8xf32>
// CHECK-COUNT-8: vector.load %{{.*}} {alignment = 16 : i64} : memref<2x8x64xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// CHECK: vector.extract %[[ACC]][0] : vector<4xf32> from vector<4x4xf32>
// CHECK-COUNT-32: vector.fma %{{.*}} : vector<4xf32>
// CHECK-NOT: vector.fma
// CHECK: scf.yield
// CHECK-COUNT-4: vector.store %{{.*}}, %arg2[{{.*}}] {alignment = 16 : i64} : memref<128x64xf32>, vector<4xf32>
// CHECK-NOT: vector.contract
// CHECK: return
func.func @simt(%a: memref<128x96xf32>, %b: memref<96x64xf32>, %c: memref<128x64xf32>) {
  linalg.matmul ins(%a, %b : memref<128x96xf32>, memref<96x64xf32>) outs(%c : memref<128x64xf32>)
  return
}

// -----

// Threads of 4 x 2 elements (a tile chosen by hand) of a C whose rows are
// 10 elements: a thread's row of C starts at a multiple of 2 elements, so
// its loads and stores of C are aligned to 8 bytes, not 16.
// CHECK-LABEL: func.func @narrow_rows
// CHECK: vector.load %arg2[{{.*}}] {alignment = 8 : i64} : memref<16x10xf32>, vector<2xf32>
// CHECK: vector.fma
// CHECK: vector.store %{{.*}}, %arg2[{{.*}}] {alignment = 8 : i64} : memref<16x10xf32>, vector<2xf32>
func.func @narrow_rows(%a: memref<16x8xf32>, %b: memref<8x10xf32>, %c: memref<16x10xf32>) {
  linalg.matmul {mp.gpu_tile = array<i64: 16, 10, 4, 2>} ins(%a, %b : memref<16x8xf32>, memref<8x10xf32>) outs(%c : memref<16x10xf32>)
  return
}

// -----

// Tensor Core stages are mp-gpu-vector-to-mma's: left alone.
// CHECK-LABEL: func.func @mma
// CHECK: vector.contract
// CHECK-NOT: vector.fma
func.func @mma(%a: memref<64x64xf16>, %b: memref<64x64xf16>, %c: memref<64x64xf32>) {
  linalg.matmul ins(%a, %b : memref<64x64xf16>, memref<64x64xf16>) outs(%c : memref<64x64xf32>)
  return
}
