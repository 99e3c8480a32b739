// Convolutions cuDNN computes, in the layouts mp-gpu-library-conv describes
// to it besides convs.mlir's NCHW and grouped ones: 1-d NCW (height 1), 3-d
// NCDHW, NHWC with an FHWC filter, and an image that is a strided view (a
// slice of an f16 argument), which is packed before the call.

func.func @conv1d(%img: tensor<2x3x29xf32>, %w: tensor<4x3x5xf32>) -> tensor<2x4x7xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4x7xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x7xf32>) -> tensor<2x4x7xf32>
  %c = linalg.conv_1d_ncw_fcw {dilations = dense<2> : vector<1xi64>, strides = dense<3> : vector<1xi64>}
      ins(%img, %w : tensor<2x3x29xf32>, tensor<4x3x5xf32>) outs(%acc : tensor<2x4x7xf32>) -> tensor<2x4x7xf32>
  return %c : tensor<2x4x7xf32>
}

func.func @conv3d(%img: tensor<2x3x6x7x8xf32>, %w: tensor<5x3x2x3x2xf32>) -> tensor<2x5x5x5x7xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x5x5x5x7xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<2x5x5x5x7xf32>) -> tensor<2x5x5x5x7xf32>
  %c = linalg.conv_3d_ncdhw_fcdhw {dilations = dense<1> : vector<3xi64>, strides = dense<1> : vector<3xi64>}
      ins(%img, %w : tensor<2x3x6x7x8xf32>, tensor<5x3x2x3x2xf32>) outs(%acc : tensor<2x5x5x5x7xf32>) -> tensor<2x5x5x5x7xf32>
  return %c : tensor<2x5x5x5x7xf32>
}

func.func @nhwc_fhwc(%img: tensor<2x9x8x5xf32>, %w: tensor<6x3x2x5xf32>, %acc: tensor<2x4x7x6xf32>) -> tensor<2x4x7x6xf32> {
  %c = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : vector<2xi64>, strides = dense<[2, 1]> : vector<2xi64>}
      ins(%img, %w : tensor<2x9x8x5xf32>, tensor<6x3x2x5xf32>) outs(%acc : tensor<2x4x7x6xf32>) -> tensor<2x4x7x6xf32>
  return %c : tensor<2x4x7x6xf32>
}

func.func @strided_view(%big: tensor<2x5x12x12xf16>, %w: tensor<4x5x3x3xf16>) -> tensor<2x4x8x8xf32> {
  %img = tensor.extract_slice %big[0, 0, 1, 2] [2, 5, 10, 10] [1, 1, 1, 1] : tensor<2x5x12x12xf16> to tensor<2x5x10x10xf16>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4x8x8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%img, %w : tensor<2x5x10x10xf16>, tensor<4x5x3x3xf16>) outs(%acc : tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32>
  return %c : tensor<2x4x8x8xf32>
}

// torch-mlir's input gradient of a 3x3 convolution with stride 2 and
// padding 1: a stride-1 convolution of the output gradient spread out with
// zeros by a strided insertion (and the filter as the IR gives it, 3x5 of
// the forward's 5x3). mp-gpu-library-conv gives it to cuDNN's backward-data
// convolution, which skips the zeros.
func.func @input_gradient(%dy: tensor<2x5x5x7xf32>, %w: tensor<3x5x3x3xf32>) -> tensor<2x3x9x13xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x5x11x15xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x5x11x15xf32>) -> tensor<2x5x11x15xf32>
  %spread = tensor.insert_slice %dy into %z[0, 0, 1, 1] [2, 5, 5, 7] [1, 1, 2, 2] : tensor<2x5x5x7xf32> into tensor<2x5x11x15xf32>
  %eo = tensor.empty() : tensor<2x3x9x13xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x3x9x13xf32>) -> tensor<2x3x9x13xf32>
  %dx = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%spread, %w : tensor<2x5x11x15xf32>, tensor<3x5x3x3xf32>) outs(%acc : tensor<2x3x9x13xf32>) -> tensor<2x3x9x13xf32>
  return %dx : tensor<2x3x9x13xf32>
}

// Zero-padded images (a tensor.pad before the convolution): cuDNN reads
// the unpadded tensor and pads it itself. NCHW padded by 1 on each side;
// NHWC padded by 2 rows before and 1 after, where cuDNN's padding of 2 on
// both sides gives the same 5 output rows at stride 2.
func.func @padded_nchw(%img: tensor<2x3x9x9xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<2x4x5x5xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %img low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zero : f32
  } : tensor<2x3x9x9xf32> to tensor<2x3x11x11xf32>
  %e = tensor.empty() : tensor<2x4x5x5xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x5x5xf32>) -> tensor<2x4x5x5xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
      ins(%p, %w : tensor<2x3x11x11xf32>, tensor<4x3x3x3xf32>) outs(%acc : tensor<2x4x5x5xf32>) -> tensor<2x4x5x5xf32>
  return %c : tensor<2x4x5x5xf32>
}

func.func @padded_nhwc(%img: tensor<1x8x8x2xf32>, %w: tensor<3x3x3x2xf32>) -> tensor<1x5x4x3xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %img low[0, 2, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zero : f32
  } : tensor<1x8x8x2xf32> to tensor<1x11x10x2xf32>
  %e = tensor.empty() : tensor<1x5x4x3xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x5x4x3xf32>) -> tensor<1x5x4x3xf32>
  %c = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
      ins(%p, %w : tensor<1x11x10x2xf32>, tensor<3x3x3x2xf32>) outs(%acc : tensor<1x5x4x3xf32>) -> tensor<1x5x4x3xf32>
  return %c : tensor<1x5x4x3xf32>
}

// torch-mlir's filter gradient of a 3x3 convolution of stride 2 and padding
// 1 (image 2x3x6x6, output gradient 2x4x3x3): a grouped convolution with
// one group per image (the image transposed and padded, the output
// gradient as one-channel filters, dilation 2), cut to the window,
// transposed and summed over the images. mp-gpu-select-gemm gives the
// chain to cuDNN's backward filter.
func.func @filter_gradient(%x: tensor<2x3x6x6xf32>, %dy: tensor<2x4x3x3xf32>) -> tensor<4x3x3x3xf32> {
  %zero = arith.constant 0.0 : f32
  %te = tensor.empty() : tensor<3x2x6x6xf32>
  %xt = linalg.transpose ins(%x : tensor<2x3x6x6xf32>) outs(%te : tensor<3x2x6x6xf32>) permutation = [1, 0, 2, 3]
  %xp = tensor.pad %xt low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zero : f32
  } : tensor<3x2x6x6xf32> to tensor<3x2x8x8xf32>
  %image = tensor.expand_shape %xp [[0], [1, 2], [3], [4]] output_shape [3, 2, 1, 8, 8] : tensor<3x2x8x8xf32> into tensor<3x2x1x8x8xf32>
  %filters = tensor.expand_shape %dy [[0], [1], [2, 3], [4]] output_shape [2, 4, 1, 3, 3] : tensor<2x4x3x3xf32> into tensor<2x4x1x3x3xf32>
  %oe = tensor.empty() : tensor<3x2x4x4x4xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%oe : tensor<3x2x4x4x4xf32>) -> tensor<3x2x4x4x4xf32>
  %g = linalg.conv_2d_ngchw_gfchw {dilations = dense<2> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
    ins(%image, %filters : tensor<3x2x1x8x8xf32>, tensor<2x4x1x3x3xf32>) outs(%acc : tensor<3x2x4x4x4xf32>) -> tensor<3x2x4x4x4xf32>
  %flat = tensor.collapse_shape %g [[0], [1, 2], [3], [4]] : tensor<3x2x4x4x4xf32> into tensor<3x8x4x4xf32>
  %cut = tensor.extract_slice %flat[0, 0, 0, 0] [3, 8, 3, 3] [1, 1, 1, 1] : tensor<3x8x4x4xf32> to tensor<3x8x3x3xf32>
  %split = tensor.expand_shape %cut [[0], [1, 2], [3], [4]] output_shape [3, 2, 4, 3, 3] : tensor<3x8x3x3xf32> into tensor<3x2x4x3x3xf32>
  %pe = tensor.empty() : tensor<2x4x3x3x3xf32>
  %per = linalg.transpose ins(%split : tensor<3x2x4x3x3xf32>) outs(%pe : tensor<2x4x3x3x3xf32>) permutation = [1, 2, 0, 3, 4]
  %se = tensor.empty() : tensor<4x3x3x3xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%se : tensor<4x3x3x3xf32>) -> tensor<4x3x3x3xf32>
  %dw = linalg.generic {indexing_maps = [affine_map<(a, b, c, d, e) -> (a, b, c, d, e)>, affine_map<(a, b, c, d, e) -> (b, c, d, e)>],
                        iterator_types = ["reduction", "parallel", "parallel", "parallel", "parallel"]}
      ins(%per : tensor<2x4x3x3x3xf32>) outs(%sz : tensor<4x3x3x3xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<4x3x3x3xf32>
  return %dw : tensor<4x3x3x3xf32>
}
