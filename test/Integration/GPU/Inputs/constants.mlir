// A graph with a non-splat tensor constant (a bias table) and a splat one:
// on the GPU, kernels must read both from device-visible buffers.
func.func @bias_table(%a: tensor<4x16xf32>, %b: tensor<16x8xf32>) -> tensor<4x8xf32> {
  %zero = arith.constant dense<0.0> : tensor<4x8xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<4x16xf32>, tensor<16x8xf32>) outs(%zero : tensor<4x8xf32>) -> tensor<4x8xf32>
  %table = arith.constant dense<[[0.5, -1.0, 2.0, 0.25, 1.5, -0.5, 3.0, -2.0], [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0], [0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7], [-1.0, -2.0, -3.0, -4.0, 4.0, 3.0, 2.0, 1.0]]> : tensor<4x8xf32>
  %r = arith.addf %mm, %table : tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
