// Errors of mp-gpu-library-conv (library-conv.mlir runs this file).

// An f32 convolution cuDNN's Tensor Core path does not take.
func.func @f32_conv(%x: memref<1x8x16x16xf32>, %w: memref<16x8x3x3xf32>, %acc: memref<1x16x14x14xf32>) {
  // expected-error @below {{mp-gpu-library-conv: marked mp.gpu_gemm = "library" but not a convolution on buffers that cuDNN computes (NCHW, grouped NGCHW or NHWC, or a filter gradient of NCHW operands; static shapes, f16 or bf16 operands, an f32 accumulator)}}
  linalg.conv_2d_nchw_fchw {mp.gpu_gemm = "library"} ins(%x, %w : memref<1x8x16x16xf32>, memref<16x8x3x3xf32>) outs(%acc : memref<1x16x14x14xf32>)
  return
}

// -----

// A layout cuDNN has no filter format for.
func.func @hwcf(%x: memref<1x16x16x8xf16>, %w: memref<3x3x8x16xf16>, %acc: memref<1x14x14x16xf32>) {
  // expected-error @below {{not a convolution on buffers that cuDNN computes}}
  linalg.conv_2d_nhwc_hwcf {mp.gpu_gemm = "library"} ins(%x, %w : memref<1x16x16x8xf16>, memref<3x3x8x16xf16>) outs(%acc : memref<1x14x14x16xf32>)
  return
}

// -----

// expected-error @below {{mp-gpu-library-conv: @mp_cuda_conv is the runtime's; rename this function}}
func.func @mp_cuda_conv() {
  return
}

func.func @conv(%x: memref<1x8x16x16xf16>, %w: memref<16x8x3x3xf16>, %acc: memref<1x16x14x14xf32>) {
  linalg.conv_2d_nchw_fchw {mp.gpu_gemm = "library"} ins(%x, %w : memref<1x8x16x16xf16>, memref<16x8x3x3xf16>) outs(%acc : memref<1x16x14x14xf32>)
  return
}

// -----

// A filter gradient whose output gradient is not cuDNN's output size for
// its image (3 rows; cuDNN's stride-2 convolution of 9 rows with a 3-row
// window has 4).
func.func @filter_gradient_sizes(%x: memref<2x3x9x9xf16>, %dy: memref<2x4x3x3xf16>, %acc: memref<4x3x3x3xf32>) {
  // expected-error @below {{not a convolution on buffers that cuDNN computes}}
  linalg.generic {indexing_maps = [affine_map<(k, c, r, s, n, h, w) -> (n, c, r + h * 2, s + w * 2)>,
                                   affine_map<(k, c, r, s, n, h, w) -> (n, k, h, w)>,
                                   affine_map<(k, c, r, s, n, h, w) -> (k, c, r, s)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %dy : memref<2x3x9x9xf16>, memref<2x4x3x3xf16>) outs(%acc : memref<4x3x3x3xf32>) attrs = {mp.gpu_gemm = "library"} {
  ^bb0(%a: f16, %b: f16, %o: f32):
    %ae = arith.extf %a : f16 to f32
    %be = arith.extf %b : f16 to f32
    %m = arith.mulf %ae, %be : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  }
  return
}
