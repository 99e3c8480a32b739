// A GEMM for wgmma-variants.mlir's in-flight runs: K = 128, four K steps of
// 32, so that three stages give its panels three slots.
func.func @ab_k128(%a: memref<128x128xf16>, %b: memref<128x128xf16>, %c: memref<128x128xf32>) {
  linalg.matmul ins(%a, %b : memref<128x128xf16>, memref<128x128xf16>) outs(%c : memref<128x128xf32>)
  return
}
