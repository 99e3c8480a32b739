// Convolutions the GPU backend computes as implicit GEMMs
// (mp-gpu-conv-to-gemm): NCHW with a stride, a bias and a ReLU; NHWC with
// a dilation; a grouped NGCHW with a dilation (torch-mlir's filter
// gradients); 1-d and 3-d; at channel and pixel counts no tile divides.

#bias = affine_map<(n, f, h, w) -> (f)>
#id = affine_map<(n, f, h, w) -> (n, f, h, w)>

func.func @nchw(%img: tensor<3x5x13x13xf32>, %w: tensor<7x5x3x3xf32>, %b: tensor<7xf32>) -> tensor<3x7x6x6xf32> {
  %e = tensor.empty() : tensor<3x7x6x6xf32>
  %acc = linalg.generic {indexing_maps = [#bias, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%b : tensor<7xf32>) outs(%e : tensor<3x7x6x6xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<3x7x6x6xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
      ins(%img, %w : tensor<3x5x13x13xf32>, tensor<7x5x3x3xf32>) outs(%acc : tensor<3x7x6x6xf32>) -> tensor<3x7x6x6xf32>
  %zero = arith.constant 0.0 : f32
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c : tensor<3x7x6x6xf32>) outs(%e : tensor<3x7x6x6xf32>) {
    ^bb0(%in: f32, %out: f32):
      %m = arith.maximumf %in, %zero : f32
      linalg.yield %m : f32
    } -> tensor<3x7x6x6xf32>
  return %r : tensor<3x7x6x6xf32>
}

func.func @nhwc(%img: tensor<2x17x15x6xf32>, %w: tensor<3x3x6x9xf32>) -> tensor<2x13x11x9xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x13x11x9xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<2x13x11x9xf32>) -> tensor<2x13x11x9xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%img, %w : tensor<2x17x15x6xf32>, tensor<3x3x6x9xf32>) outs(%acc : tensor<2x13x11x9xf32>) -> tensor<2x13x11x9xf32>
  return %c : tensor<2x13x11x9xf32>
}

func.func @grouped(%img: tensor<3x4x2x11x11xf32>, %w: tensor<4x6x2x3x3xf32>) -> tensor<3x4x6x7x7xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x4x6x7x7xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<3x4x6x7x7xf32>) -> tensor<3x4x6x7x7xf32>
  %c = linalg.conv_2d_ngchw_gfchw {dilations = dense<2> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%img, %w : tensor<3x4x2x11x11xf32>, tensor<4x6x2x3x3xf32>) outs(%acc : tensor<3x4x6x7x7xf32>) -> tensor<3x4x6x7x7xf32>
  return %c : tensor<3x4x6x7x7xf32>
}

func.func @conv1d(%img: tensor<3x20x5xf32>, %w: tensor<4x5x6xf32>) -> tensor<3x17x6xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x17x6xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<3x17x6xf32>) -> tensor<3x17x6xf32>
  %c = linalg.conv_1d_nwc_wcf {dilations = dense<1> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>}
      ins(%img, %w : tensor<3x20x5xf32>, tensor<4x5x6xf32>) outs(%acc : tensor<3x17x6xf32>) -> tensor<3x17x6xf32>
  return %c : tensor<3x17x6xf32>
}

func.func @conv3d(%img: tensor<2x6x7x8x3xf32>, %w: tensor<2x3x2x3x5xf32>) -> tensor<2x5x5x7x5xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x5x5x7x5xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<2x5x5x7x5xf32>) -> tensor<2x5x5x7x5xf32>
  %c = linalg.conv_3d_ndhwc_dhwcf {dilations = dense<1> : tensor<3xi64>, strides = dense<1> : tensor<3xi64>}
      ins(%img, %w : tensor<2x6x7x8x3xf32>, tensor<2x3x2x3x5xf32>) outs(%acc : tensor<2x5x5x7x5xf32>) -> tensor<2x5x5x7x5xf32>
  return %c : tensor<2x5x5x7x5xf32>
}
