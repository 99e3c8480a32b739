// RUN: not mp-opt %s --mp-gpu-vector-to-mma 2>&1 | FileCheck %s

// A contraction that upstream's conversion leaves as it is (here its result
// goes through math.exp, which mma fragments do not take, so the conversion
// drops the whole chain) is an error at the kernel, not a vector
// contraction left for the NVVM lowering to trip on.
// CHECK: vector-to-mma-invalid.mlir:[[@LINE+7]]:3: error: mp-gpu-vector-to-mma: cannot lower this tiled contraction to mma.sync
func.func @unsupported_chain(%a: memref<16x16xf16>, %b: memref<16x8xf16>, %c: memref<16x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %h0 = arith.constant 0.0 : f16
  %f0 = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %va = vector.transfer_read %a[%c0, %c0], %h0 {in_bounds = [true, true]} : memref<16x16xf16>, vector<16x16xf16>
    %vb = vector.transfer_read %b[%c0, %c0], %h0 {in_bounds = [true, true]} : memref<16x8xf16>, vector<16x8xf16>
    %vc = vector.transfer_read %c[%c0, %c0], %f0 {in_bounds = [true, true]} : memref<16x8xf32>, vector<16x8xf32>
    %r = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %va, %vb, %vc : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
    %e = math.exp %r : vector<16x8xf32>
    vector.transfer_write %e, %c[%c0, %c0] {in_bounds = [true, true]} : vector<16x8xf32>, memref<16x8xf32>
    gpu.terminator
  }
  return
}
