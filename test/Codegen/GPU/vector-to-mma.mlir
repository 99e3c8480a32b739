// RUN: mp-opt %s --split-input-file --mp-gpu-tile-contractions --mp-gpu-vector-to-mma | FileCheck %s --implicit-check-not=vector.contract

// The tiled stage's m16n8k16 contracts become mma.sync with f32
// accumulators (2x4 per warp and K step); the generic outside stays.
// CHECK-LABEL: func.func @matmul_then_relu
// CHECK: scf.forall
// CHECK-COUNT-8: nvgpu.mma.sync({{.*}}) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
// CHECK: linalg.generic
// CHECK: arith.maximumf
func.func @matmul_then_relu(%a: memref<64x32xf16>, %b: memref<32x64xf16>, %c: memref<64x64xf32>) {
  linalg.matmul ins(%a, %b : memref<64x32xf16>, memref<32x64xf16>) outs(%c : memref<64x64xf32>)
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
// CHECK: scf.forall
// CHECK: builtin.unrealized_conversion_cast {{.*}} : memref<{{.*}}xbf16, {{.*}}> to memref<{{.*}}xf16,
// CHECK-COUNT-8: nvvm.mma.sync A[{{.*}}, {{.*}}, {{.*}}, {{.*}}] B[{{.*}}, {{.*}}] C[{{.*}}, {{.*}}, {{.*}}, {{.*}}] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NOT: nvgpu.mma.sync
// CHECK: return
func.func @bf16_matmul(%a: memref<64x32xbf16>, %b: memref<32x64xbf16>, %c: memref<64x64xf32>) {
  linalg.matmul ins(%a, %b : memref<64x32xbf16>, memref<32x64xbf16>) outs(%c : memref<64x64xf32>)
  return
}
