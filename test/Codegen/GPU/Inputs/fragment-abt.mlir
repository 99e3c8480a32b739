// Input of fragment-layout.mlir: A x B^T with B stored N x K.
func.func @abt(%a: memref<16x16xf16>, %b: memref<8x16xf16>, %c: memref<16x8xf32>) {
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : memref<16x16xf16>, memref<8x16xf16>) outs(%c : memref<16x8xf32>) {
  ^bb0(%x: f16, %y: f16, %acc: f32):
    %e = arith.extf %x : f16 to f32
    %f = arith.extf %y : f16 to f32
    %p = arith.mulf %e, %f : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}
