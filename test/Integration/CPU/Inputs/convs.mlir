// Convolutions the CPU backend computes as vectorized GEMMs
// (mp-conv-to-gemm): NCHW with a stride and a bias, NHWC with a dilation,
// grouped NGCHW (torch-mlir's filter gradients), 1-d; and ones it leaves as
// loops: a pixel count no register block divides, a depthwise convolution.
// Convolutions over images spread out with zeros (torch-mlir's input
// gradients of strided convolutions), which mp-split-convolution-phases
// computes as one convolution per phase: 2-d (GEMMs) and 1-d (loops).
// numerics.py holds their references.

#bias = affine_map<(n, f, h, w) -> (f)>
#id = affine_map<(n, f, h, w) -> (n, f, h, w)>

func.func @conv_nchw(%img: tensor<4x3x13x13xf32>, %w: tensor<8x3x3x3xf32>, %b: tensor<8xf32>) -> tensor<4x8x6x6xf32> {
  %e = tensor.empty() : tensor<4x8x6x6xf32>
  %acc = linalg.generic {indexing_maps = [#bias, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%b : tensor<8xf32>) outs(%e : tensor<4x8x6x6xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<4x8x6x6xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
      ins(%img, %w : tensor<4x3x13x13xf32>, tensor<8x3x3x3xf32>) outs(%acc : tensor<4x8x6x6xf32>) -> tensor<4x8x6x6xf32>
  return %c : tensor<4x8x6x6xf32>
}

func.func @conv_nhwc(%img: tensor<2x12x14x6xf32>, %w: tensor<3x3x6x12xf32>) -> tensor<2x8x10x12xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x8x10x12xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8x10x12xf32>) -> tensor<2x8x10x12xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%img, %w : tensor<2x12x14x6xf32>, tensor<3x3x6x12xf32>) outs(%acc : tensor<2x8x10x12xf32>) -> tensor<2x8x10x12xf32>
  return %c : tensor<2x8x10x12xf32>
}

func.func @conv_grouped(%img: tensor<4x3x2x12x12xf32>, %w: tensor<3x4x2x3x3xf32>) -> tensor<4x3x4x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x3x4x8x8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<4x3x4x8x8xf32>) -> tensor<4x3x4x8x8xf32>
  %c = linalg.conv_2d_ngchw_gfchw {dilations = dense<2> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%img, %w : tensor<4x3x2x12x12xf32>, tensor<3x4x2x3x3xf32>) outs(%acc : tensor<4x3x4x8x8xf32>) -> tensor<4x3x4x8x8xf32>
  return %c : tensor<4x3x4x8x8xf32>
}

func.func @conv_1d(%img: tensor<2x20x5xf32>, %w: tensor<5x5x8xf32>) -> tensor<2x16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x16x8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<2x16x8xf32>) -> tensor<2x16x8xf32>
  %c = linalg.conv_1d_nwc_wcf {dilations = dense<1> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>}
      ins(%img, %w : tensor<2x20x5xf32>, tensor<5x5x8xf32>) outs(%acc : tensor<2x16x8xf32>) -> tensor<2x16x8xf32>
  return %c : tensor<2x16x8xf32>
}

func.func @conv_odd_pixels(%img: tensor<1x3x9x9xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x7x7xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x7x7xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x7x7xf32>) -> tensor<1x4x7x7xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%img, %w : tensor<1x3x9x9xf32>, tensor<4x3x3x3xf32>) outs(%acc : tensor<1x4x7x7xf32>) -> tensor<1x4x7x7xf32>
  return %c : tensor<1x4x7x7xf32>
}

func.func @conv_depthwise(%img: tensor<2x10x10x4xf32>, %w: tensor<3x3x4xf32>) -> tensor<2x8x8x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x8x8x4xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8x8x4xf32>) -> tensor<2x8x8x4xf32>
  %c = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%img, %w : tensor<2x10x10x4xf32>, tensor<3x3x4xf32>) outs(%acc : tensor<2x8x8x4xf32>) -> tensor<2x8x8x4xf32>
  return %c : tensor<2x8x8x4xf32>
}

func.func @conv_spread_2d(%dy: tensor<4x6x4x4xf32>, %w: tensor<5x6x3x3xf32>) -> tensor<4x5x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x6x10x10xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x6x10x10xf32>) -> tensor<4x6x10x10xf32>
  %img = tensor.insert_slice %dy into %z[0, 0, 1, 1] [4, 6, 4, 4] [1, 1, 2, 2] : tensor<4x6x4x4xf32> into tensor<4x6x10x10xf32>
  %e2 = tensor.empty() : tensor<4x5x8x8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e2 : tensor<4x5x8x8xf32>) -> tensor<4x5x8x8xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%img, %w : tensor<4x6x10x10xf32>, tensor<5x6x3x3xf32>) outs(%acc : tensor<4x5x8x8xf32>) -> tensor<4x5x8x8xf32>
  return %c : tensor<4x5x8x8xf32>
}

func.func @conv_spread_1d(%x: tensor<2x4x3xf32>, %w: tensor<2x3x4xf32>, %acc: tensor<2x13x4xf32>) -> tensor<2x13x4xf32> {
  %z = arith.constant dense<0.0> : tensor<2x14x3xf32>
  %img = tensor.insert_slice %x into %z[0, 4, 0] [2, 4, 3] [1, 3, 1] : tensor<2x4x3xf32> into tensor<2x14x3xf32>
  %c = linalg.conv_1d_nwc_wcf {dilations = dense<1> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>}
      ins(%img, %w : tensor<2x14x3xf32>, tensor<2x3x4xf32>) outs(%acc : tensor<2x13x4xf32>) -> tensor<2x13x4xf32>
  return %c : tensor<2x13x4xf32>
}
