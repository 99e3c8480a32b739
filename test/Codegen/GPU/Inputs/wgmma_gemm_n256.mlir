// A GEMM for blocks of 128 x 256 (wgmma-variants.mlir): B's N-major panel
// of 256 columns is four 64-column blocks.

func.func @ab256(%a: memref<128x64xf16>, %b: memref<64x256xf16>, %c: memref<128x256xf32>) {
  linalg.matmul ins(%a, %b : memref<128x64xf16>, memref<64x256xf16>) outs(%c : memref<128x256xf32>)
  return
}
