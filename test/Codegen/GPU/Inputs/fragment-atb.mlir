// Input of fragment-layout.mlir: A^T x B with A stored K x M (torch-mlir's
// weight gradients), on the default tiles.
func.func @atb(%a: memref<32x64xf16>, %b: memref<32x64xf16>, %c: memref<64x64xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>] ins(%a, %b : memref<32x64xf16>, memref<32x64xf16>) outs(%c : memref<64x64xf32>)
  return
}
