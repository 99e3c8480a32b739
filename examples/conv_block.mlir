// A small convolutional block: conv 3x3 (3 -> 8 channels), ReLU, 2x2 max
// pooling, conv 3x3 (8 -> 4 channels), 2x2 sum pooling.
func.func @conv_block(%img: tensor<1x10x10x3xf32>, %f1: tensor<3x3x3x8xf32>, %f2: tensor<3x3x8x4xf32>) -> tensor<1x1x1x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<1x8x8x8xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  %c1 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%img, %f1 : tensor<1x10x10x3xf32>, tensor<3x3x3x8xf32>) outs(%z1 : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  %r1 = linalg.max ins(%c1, %z1 : tensor<1x8x8x8xf32>, tensor<1x8x8x8xf32>) outs(%e1 : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  %win = tensor.empty() : tensor<2x2xf32>
  %e2 = tensor.empty() : tensor<1x4x4x8xf32>
  %ninf = arith.constant -3.0e38 : f32
  %m2 = linalg.fill ins(%ninf : f32) outs(%e2 : tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32>
  %p1 = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%r1, %win : tensor<1x8x8x8xf32>, tensor<2x2xf32>) outs(%m2 : tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32>
  %e3 = tensor.empty() : tensor<1x2x2x4xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<1x2x2x4xf32>) -> tensor<1x2x2x4xf32>
  %c2 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p1, %f2 : tensor<1x4x4x8xf32>, tensor<3x3x8x4xf32>) outs(%z3 : tensor<1x2x2x4xf32>) -> tensor<1x2x2x4xf32>
  %e4 = tensor.empty() : tensor<1x1x1x4xf32>
  %z4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<1x1x1x4xf32>) -> tensor<1x1x1x4xf32>
  %s = linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%c2, %win : tensor<1x2x2x4xf32>, tensor<2x2xf32>) outs(%z4 : tensor<1x1x1x4xf32>) -> tensor<1x1x1x4xf32>
  return %s : tensor<1x1x1x4xf32>
}
