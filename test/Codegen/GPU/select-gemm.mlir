// RUN: mp-opt %s --mp-gpu-select-gemm=gemm=library | FileCheck %s --check-prefix=LIB
// RUN: mp-opt %s --mp-gpu-select-gemm='gemm=auto library-min-macs=50000' | FileCheck %s --check-prefix=AUTO
// RUN: mp-opt %s --mp-gpu-select-gemm | FileCheck %s --check-prefix=CODEGEN --implicit-check-not=mp.gpu_gemm
// RUN: mp-opt %s --mp-gpu-select-gemm='gemm=library' --mp-gpu-choose-tiles | FileCheck %s --check-prefix=TILES
// RUN: mp-opt %s --mp-gpu-select-gemm=gemm=library --mp-gpu-conv-to-gemm | FileCheck %s --check-prefix=LIBGEMM
// RUN: not mp-opt %s --mp-gpu-select-gemm='library-min-macs=-1' 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: mp-opt %s --mp-gpu-select-gemm=gemm=library 2>&1 >/dev/null | FileCheck %s --check-prefix=DYNAMIC --implicit-check-not=warning
// RUN: mp-opt %s --mp-gpu-select-gemm=gemm=auto 2>&1 >/dev/null | FileCheck %s --check-prefix=QUIET --allow-empty --implicit-check-not=warning

// BAD: error: mp-gpu-select-gemm: library-min-macs=-1 is invalid: expected a count of multiply-accumulates >= 0

// The indexing maps of @torch_filter_gradient's filter gradient (below).
// LIB-DAG: #[[X:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d1, d2 + d5 * 2, d3 + d6 * 2)>
// LIB-DAG: #[[DY:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d0, d5, d6)>
// LIB-DAG: #[[DWMAP:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>

// gemm=library marks every Tensor Core contraction (37x61x29 = 65,453 MACs,
// 3x37x61x29 = 196,359 and 4x4x16 = 256) and the f32 matmul (cuBLASLt's
// f32 kernels); not one whose body is not a multiply-accumulate. gemm=auto
// marks the Tensor Core ones of at least library-min-macs, no f32 one. The default (codegen) marks none, and
// mp-gpu-choose-tiles gives marked ones no tiles.
// LIB-LABEL: func.func @gemms
// LIB: linalg.matmul {mp.gpu_gemm = "library"} ins(%arg0, %arg1 : tensor<37x29xf16>
// LIB: linalg.batch_matmul {mp.gpu_gemm = "library"}
// LIB: linalg.matmul {mp.gpu_gemm = "library"} ins(%arg4, %arg5 : tensor<4x16xbf16>
// LIB: linalg.matmul {mp.gpu_gemm = "library"} ins(%arg6, %arg7 : tensor<4x16xf32>
// LIB: linalg.generic
// LIB-NOT: mp.gpu_gemm
// LIB: arith.maximumf
// LIB: linalg.matmul {mp.gpu_gemm = "library"} ins(%arg10, %arg11 : tensor<37x29xf32>
// AUTO-LABEL: func.func @gemms
// AUTO: linalg.matmul {mp.gpu_gemm = "library"} ins(%arg0, %arg1 : tensor<37x29xf16>
// AUTO: linalg.batch_matmul {mp.gpu_gemm = "library"}
// AUTO: linalg.matmul ins(%arg4, %arg5 : tensor<4x16xbf16>
// AUTO: linalg.matmul ins(%arg6, %arg7 : tensor<4x16xf32>
// AUTO: linalg.matmul ins(%arg10, %arg11 : tensor<37x29xf32>
// CODEGEN-LABEL: func.func @gemms
// TILES-LABEL: func.func @gemms
// TILES-NOT: mp.gpu_tile
// TILES: linalg.matmul {mp.gpu_gemm = "library"} ins(%arg0, %arg1 : tensor<37x29xf16>, tensor<29x61xf16>) outs(%arg2 : tensor<37x61xf32>)
// TILES-NOT: mp.gpu_tile
func.func @gemms(%a: tensor<37x29xf16>, %b: tensor<29x61xf16>,
                 %c: tensor<37x61xf32>, %ba: tensor<3x37x29xf16>,
                 %sa: tensor<4x16xbf16>, %sb: tensor<16x4xbf16>,
                 %fa: tensor<4x16xf32>, %fb: tensor<16x4xf32>,
                 %c3: tensor<3x37x61xf32>, %c4: tensor<4x4xf32>,
                 %la: tensor<37x29xf32>, %lb: tensor<29x61xf32>)
    -> (tensor<37x61xf32>, tensor<3x37x61xf32>, tensor<4x4xf32>,
        tensor<4x4xf32>, tensor<4x4xf32>, tensor<37x61xf32>) {
  %0 = linalg.matmul ins(%a, %b : tensor<37x29xf16>, tensor<29x61xf16>)
                     outs(%c : tensor<37x61xf32>) -> tensor<37x61xf32>
  %bb = tensor.empty() : tensor<3x29x61xf16>
  %1 = linalg.batch_matmul ins(%ba, %bb : tensor<3x37x29xf16>, tensor<3x29x61xf16>)
                           outs(%c3 : tensor<3x37x61xf32>) -> tensor<3x37x61xf32>
  %2 = linalg.matmul ins(%sa, %sb : tensor<4x16xbf16>, tensor<16x4xbf16>)
                     outs(%c4 : tensor<4x4xf32>) -> tensor<4x4xf32>
  %3 = linalg.matmul ins(%fa, %fb : tensor<4x16xf32>, tensor<16x4xf32>)
                     outs(%c4 : tensor<4x4xf32>) -> tensor<4x4xf32>
  // acc max a*b: a contraction's shape, not a multiply-accumulate.
  %4 = linalg.generic {
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                       affine_map<(m, n, k) -> (k, n)>,
                       affine_map<(m, n, k) -> (m, n)>],
      iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%sa, %sb : tensor<4x16xbf16>, tensor<16x4xbf16>)
      outs(%c4 : tensor<4x4xf32>) {
  ^bb0(%x: bf16, %y: bf16, %acc: f32):
    %xe = arith.extf %x : bf16 to f32
    %ye = arith.extf %y : bf16 to f32
    %p = arith.mulf %xe, %ye : f32
    %m = arith.maximumf %acc, %p : f32
    linalg.yield %m : f32
  } -> tensor<4x4xf32>
  // f32, 65,453 MACs: gemm=library only.
  %5 = linalg.matmul ins(%la, %lb : tensor<37x29xf32>, tensor<29x61xf32>)
                     outs(%c : tensor<37x61xf32>) -> tensor<37x61xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<37x61xf32>, tensor<3x37x61xf32>,
      tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<37x61xf32>
}

// A contraction with a filled operand (a sum scaled by a scalar, which
// elementwise fusion folds into its body: then no GEMM is left) or a splat
// constant one is not marked, even with gemm=library.
// LIB-LABEL: func.func @uniform_operand
// TILES-LABEL: func.func @uniform_operand
// LIB: linalg.fill
// LIB-NOT: mp.gpu_gemm
// LIB: return
func.func @uniform_operand(%a: tensor<8x8xf16>, %s: f16, %c: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %e = tensor.empty() : tensor<8x8xf16>
  %b = linalg.fill ins(%s : f16) outs(%e : tensor<8x8xf16>) -> tensor<8x8xf16>
  %0 = linalg.matmul ins(%a, %b : tensor<8x8xf16>, tensor<8x8xf16>)
                     outs(%c : tensor<8x8xf32>) -> tensor<8x8xf32>
  %k = arith.constant dense<2.0> : tensor<8x8xf16>
  %1 = linalg.matmul ins(%k, %a : tensor<8x8xf16>, tensor<8x8xf16>)
                     outs(%c : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0, %1 : tensor<8x8xf32>, tensor<8x8xf32>
}

// Convolutions cuDNN computes go to the library too (by the same rule:
// 1x16x7x7x8x3x3 = 56,448 MACs reach 50,000, 1x2x4x4x2x2x2 = 256 do not):
// then mp-gpu-conv-to-gemm leaves them alone. Neither an f32 convolution
// nor an HWCF filter (no cuDNN format) is marked; both become implicit
// GEMMs (on Tensor Cores for f16, on CUDA cores for f32).
// LIB-LABEL: func.func @convs
// LIB: linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, mp.gpu_gemm = "library", strides = dense<2> : vector<2xi64>} ins(%arg0, %arg1 : tensor<1x8x16x16xf16>
// LIB: linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : vector<2xi64>, mp.gpu_gemm = "library", strides = dense<1> : vector<2xi64>} ins(%arg3, %arg4 : tensor<1x5x5x2xbf16>
// LIB: linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%arg6, %arg7 : tensor<1x8x16x16xf32>
// LIB: linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%arg9, %arg10 : tensor<1x16x16x8xf16>
// AUTO-LABEL: func.func @convs
// AUTO: linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, mp.gpu_gemm = "library"
// AUTO: linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
// CODEGEN-LABEL: func.func @convs
// LIBGEMM-LABEL: func.func @convs
// LIBGEMM: linalg.conv_2d_nchw_fchw {{.*}}mp.gpu_gemm = "library"
// LIBGEMM: linalg.conv_2d_nhwc_fhwc {{.*}}mp.gpu_gemm = "library"
// LIBGEMM-NOT: linalg.conv_2d
// LIBGEMM: return
func.func @convs(%x: tensor<1x8x16x16xf16>, %w: tensor<16x8x3x3xf16>,
                 %acc: tensor<1x16x7x7xf32>, %xs: tensor<1x5x5x2xbf16>,
                 %ws: tensor<2x2x2x2xbf16>, %accs: tensor<1x4x4x2xf32>,
                 %xf: tensor<1x8x16x16xf32>, %wf: tensor<16x8x3x3xf32>,
                 %accf: tensor<1x16x14x14xf32>, %xh: tensor<1x16x16x8xf16>,
                 %wh: tensor<3x3x8x16xf16>, %acch: tensor<1x14x14x16xf32>)
    -> (tensor<1x16x7x7xf32>, tensor<1x4x4x2xf32>, tensor<1x16x14x14xf32>,
        tensor<1x14x14x16xf32>) {
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
    ins(%x, %w : tensor<1x8x16x16xf16>, tensor<16x8x3x3xf16>) outs(%acc : tensor<1x16x7x7xf32>) -> tensor<1x16x7x7xf32>
  %1 = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
    ins(%xs, %ws : tensor<1x5x5x2xbf16>, tensor<2x2x2x2xbf16>) outs(%accs : tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  %2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
    ins(%xf, %wf : tensor<1x8x16x16xf32>, tensor<16x8x3x3xf32>) outs(%accf : tensor<1x16x14x14xf32>) -> tensor<1x16x14x14xf32>
  %3 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
    ins(%xh, %wh : tensor<1x16x16x8xf16>, tensor<3x3x8x16xf16>) outs(%acch : tensor<1x14x14x16xf32>) -> tensor<1x14x14x16xf32>
  return %0, %1, %2, %3 : tensor<1x16x7x7xf32>, tensor<1x4x4x2xf32>, tensor<1x16x14x14xf32>, tensor<1x14x14x16xf32>
}

// Grouped convolutions: gemm=library gives both to cuDNN; gemm=auto only
// the one with 8 input channels per group (cuDNN's Tensor Core kernels
// take groups of 8 channels and more; groups of one channel, as in
// torch-mlir's filter gradients, took it 7 ms a call on an H200), though
// both reach library-min-macs (127,008 and 112,896 MACs).
// LIB-LABEL: func.func @grouped
// LIB-COUNT-2: linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : vector<2xi64>, mp.gpu_gemm = "library"
// AUTO-LABEL: func.func @grouped
// AUTO: linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%arg0, %arg1 : tensor<1x4x1x24x24xf16>
// AUTO: linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : vector<2xi64>, mp.gpu_gemm = "library", strides = dense<1> : vector<2xi64>} ins(%arg3, %arg4 : tensor<1x2x8x16x16xf16>
func.func @grouped(%x1: tensor<1x4x1x24x24xf16>, %w1: tensor<4x2x1x7x7xf16>,
                   %acc1: tensor<1x4x2x18x18xf32>,
                   %x8: tensor<1x2x8x16x16xf16>, %w8: tensor<2x4x8x3x3xf16>,
                   %acc8: tensor<1x2x4x14x14xf32>)
    -> (tensor<1x4x2x18x18xf32>, tensor<1x2x4x14x14xf32>) {
  %0 = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
    ins(%x1, %w1 : tensor<1x4x1x24x24xf16>, tensor<4x2x1x7x7xf16>) outs(%acc1 : tensor<1x4x2x18x18xf32>) -> tensor<1x4x2x18x18xf32>
  %1 = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
    ins(%x8, %w8 : tensor<1x2x8x16x16xf16>, tensor<2x4x8x3x3xf16>) outs(%acc8 : tensor<1x2x4x14x14xf32>) -> tensor<1x2x4x14x14xf32>
  return %0, %1 : tensor<1x4x2x18x18xf32>, tensor<1x2x4x14x14xf32>
}

// torch-mlir's filter gradient of a 3x3 convolution of stride 2 and padding
// 1 (image 2x3x6x6, output gradient 2x4x3x3): a grouped convolution of one
// channel per image (the image transposed and padded, the output gradient
// as filters, dilation 2), cut to 3x3, transposed, summed over the images.
// gemm=library makes the chain one generic on the padded image and the
// output gradient, marked for cuDNN's backward filter (N x K x C x window x
// output pixels = 2x4x3x9x9 = 1,944 MACs: gemm=auto keeps it below
// library-min-macs, as the grouped convolution it is, unmarked).
// LIB-LABEL: func.func @torch_filter_gradient
// LIB-NOT: linalg.conv_2d_ngchw_gfchw
// LIB-NOT: linalg.transpose
// LIB: %[[PAD:.*]] = tensor.pad %arg0 low[0, 0, 1, 1] high[0, 0, 1, 1]
// LIB: tensor<2x3x6x6xf16> to tensor<2x3x8x8xf16>
// LIB: %[[GRAD:.*]] = linalg.generic {indexing_maps = [#[[X]], #[[DY]], #[[DWMAP]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%[[PAD]], %arg1 : tensor<2x3x8x8xf16>, tensor<2x4x3x3xf16>) outs(%{{.*}} : tensor<4x3x3x3xf32>) attrs = {mp.gpu_gemm = "library"}
// LIB: arith.mulf
// LIB-NEXT: arith.addf
// LIB-NOT: linalg.conv_2d_ngchw_gfchw
// LIB: return %[[GRAD]]
// AUTO-LABEL: func.func @torch_filter_gradient
// AUTO: linalg.conv_2d_ngchw_gfchw {dilations = dense<2> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(
// AUTO-NOT: mp.gpu_gemm
// AUTO: return
func.func @torch_filter_gradient(%x: tensor<2x3x6x6xf16>, %dy: tensor<2x4x3x3xf16>) -> tensor<4x3x3x3xf32> {
  %zero = arith.constant 0.0 : f32
  %hzero = arith.constant 0.0 : f16
  %te = tensor.empty() : tensor<3x2x6x6xf16>
  %xt = linalg.transpose ins(%x : tensor<2x3x6x6xf16>) outs(%te : tensor<3x2x6x6xf16>) permutation = [1, 0, 2, 3]
  %xp = tensor.pad %xt low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %hzero : f16
  } : tensor<3x2x6x6xf16> to tensor<3x2x8x8xf16>
  %image = tensor.expand_shape %xp [[0], [1, 2], [3], [4]] output_shape [3, 2, 1, 8, 8] : tensor<3x2x8x8xf16> into tensor<3x2x1x8x8xf16>
  %filters = tensor.expand_shape %dy [[0], [1], [2, 3], [4]] output_shape [2, 4, 1, 3, 3] : tensor<2x4x3x3xf16> into tensor<2x4x1x3x3xf16>
  %oe = tensor.empty() : tensor<3x2x4x4x4xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%oe : tensor<3x2x4x4x4xf32>) -> tensor<3x2x4x4x4xf32>
  %g = linalg.conv_2d_ngchw_gfchw {dilations = dense<2> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
    ins(%image, %filters : tensor<3x2x1x8x8xf16>, tensor<2x4x1x3x3xf16>) outs(%acc : tensor<3x2x4x4x4xf32>) -> tensor<3x2x4x4x4xf32>
  %flat = tensor.collapse_shape %g [[0], [1, 2], [3], [4]] : tensor<3x2x4x4x4xf32> into tensor<3x8x4x4xf32>
  %rows = tensor.extract_slice %flat[0, 0, 0, 0] [3, 8, 3, 4] [1, 1, 1, 1] : tensor<3x8x4x4xf32> to tensor<3x8x3x4xf32>
  %cut = tensor.extract_slice %rows[0, 0, 0, 0] [3, 8, 3, 3] [1, 1, 1, 1] : tensor<3x8x3x4xf32> to tensor<3x8x3x3xf32>
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

// A contraction of dynamic sizes stays a generated GEMM even with
// gemm=library (cuBLASLt's descriptors take static sizes), with a warning
// there; auto says nothing (its rule would not call cuBLASLt either way).
// LIB-LABEL: func.func @dynamic_rows
// LIB-NOT: mp.gpu_gemm
// LIB: return
// QUIET-NOT: warning
func.func @dynamic_rows(%a: tensor<?x64xf16>, %b: tensor<64x64xf16>, %c: tensor<?x64xf32>) -> tensor<?x64xf32> {
  // DYNAMIC: select-gemm.mlir:[[@LINE+1]]:8: warning: mp-gpu-select-gemm: this contraction has dynamic sizes, which cuBLASLt's calls do not take (their descriptors are built from static sizes): it is a generated GEMM; give its operands static sizes to call cuBLASLt
  %d = linalg.matmul ins(%a, %b : tensor<?x64xf16>, tensor<64x64xf16>) outs(%c : tensor<?x64xf32>) -> tensor<?x64xf32>
  return %d : tensor<?x64xf32>
}
