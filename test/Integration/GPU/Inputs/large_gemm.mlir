// A GEMM with 256 blocks of 128 x 128 (2048 x 2048) and a short K: with
// --gpu-wgmma it takes blocks of two warpgroups (compile-only.test).
func.func @large(%a: tensor<2048x32xf16>, %b: tensor<32x2048xf16>) -> tensor<2048x2048xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2048x2048xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %r = linalg.matmul ins(%a, %b : tensor<2048x32xf16>, tensor<32x2048xf16>) outs(%c : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  return %r : tensor<2048x2048xf32>
}
