// Input of fragment-layout.mlir: the default tiles (64 x 64 per block, four
// warps of 32 x 32, K steps of 32), so warp 0 runs 16 mma.sync per K step.
func.func @tiles(%a: memref<128x128xf16>, %b: memref<128x128xf16>, %c: memref<128x128xf32>) {
  linalg.matmul ins(%a, %b : memref<128x128xf16>, memref<128x128xf16>) outs(%c : memref<128x128xf32>)
  return
}
