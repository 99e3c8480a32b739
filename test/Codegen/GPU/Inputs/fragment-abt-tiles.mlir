// Input of fragment-layout.mlir: A x B^T with B stored N x K (a linear
// layer's weight), on the default tiles.
func.func @abt_tiles(%a: memref<64x32xf16>, %b: memref<64x32xf16>, %c: memref<64x64xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%a, %b : memref<64x32xf16>, memref<64x32xf16>) outs(%c : memref<64x64xf32>)
  return
}
