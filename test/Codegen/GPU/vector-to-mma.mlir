// RUN: mp-opt %s --mp-gpu-tile-contractions --mp-gpu-vector-to-mma | FileCheck %s --implicit-check-not=vector.contract

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
