// RUN: mp-opt %s --mp-gpu-conv-to-gemm | FileCheck %s

// NCHW, stride 2: N is the batch (not next to the pixels), the filter the
// left operand (the output stores the channels first); the image's patches
// and the filter are gathers into (batch, rows, K) tensors, K = (c, kh, kw)
// as the filter stores it; the filter is broadcast over the batch.
// CHECK-DAG: #[[PATCH:.*]] = affine_map<(d0, d1, d2) -> (d0, d2 floordiv 9, (d1 floordiv 4) * 2 + (d2 floordiv 3) mod 3, d1 * 2 + d2 - (d1 floordiv 4) * 8 - (d2 floordiv 3) * 3)>
// CHECK-DAG: #[[ID3:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[FILTER:.*]] = affine_map<(d0, d1, d2) -> (d1, d2 floordiv 9, (d2 floordiv 3) mod 3, d2 mod 3)>
// CHECK-DAG: #[[LHS:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
// CHECK-DAG: #[[RHS:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-DAG: #[[NHWC_PATCH:.*]] = affine_map<(d0, d1) -> (d0 floordiv 64, (d0 floordiv 8) mod 8 + d1 floordiv 9, d0 mod 8 + (d1 floordiv 3) mod 3, d1 mod 3)>
// CHECK-DAG: #[[NHWC_FILTER:.*]] = affine_map<(d0, d1) -> (d1 floordiv 9, (d1 floordiv 3) mod 3, d1 mod 3, d0)>
// CHECK-DAG: #[[GROUPED_FILTER:.*]] = affine_map<(d0, d1, d2) -> (d0 mod 4, d1, d2 floordiv 9, (d2 floordiv 3) mod 3, d2 mod 3)>
// CHECK-LABEL: func.func @nchw
// CHECK-SAME: (%[[IMG:.*]]: tensor<2x3x9x9xf16>, %[[W:.*]]: tensor<5x3x3x3xf16>, %[[ACC:.*]]: tensor<2x5x4x4xf32>)
// CHECK: %[[P:.*]] = linalg.generic {indexing_maps = [#[[PATCH]], #[[ID3]]], iterator_types = ["parallel", "parallel", "parallel"]} ins(%[[IMG]] : tensor<2x3x9x9xf16>) outs(%{{.*}} : tensor<2x16x27xf16>)
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f16, %{{.*}}: f16):
// CHECK-NEXT: linalg.yield %[[IN]] : f16
// CHECK: %[[F:.*]] = linalg.generic {indexing_maps = [#[[FILTER]], #[[ID3]]], {{.*}} ins(%[[W]] : tensor<5x3x3x3xf16>) outs(%{{.*}} : tensor<2x5x27xf16>)
// CHECK: %[[C:.*]] = tensor.collapse_shape %[[ACC]] {{\[}}[0], [1], [2, 3]] : tensor<2x5x4x4xf32> into tensor<2x5x16xf32>
// CHECK: %[[G:.*]] = linalg.generic {indexing_maps = [#[[LHS]], #[[RHS]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%[[F]], %[[P]] : tensor<2x5x27xf16>, tensor<2x16x27xf16>) outs(%[[C]] : tensor<2x5x16xf32>)
// CHECK-NEXT: ^bb0(%[[FE:.*]]: f16, %[[PE:.*]]: f16, %[[O:.*]]: f32):
// CHECK-NEXT: %[[X:.*]] = arith.extf %[[PE]] : f16 to f32
// CHECK-NEXT: %[[Y:.*]] = arith.extf %[[FE]] : f16 to f32
// CHECK-NEXT: %[[M:.*]] = arith.mulf %[[X]], %[[Y]] : f32
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[O]], %[[M]] : f32
// CHECK-NEXT: linalg.yield %[[S]] : f32
// CHECK: %[[R:.*]] = tensor.expand_shape %[[G]] {{\[}}[0], [1], [2, 3]] output_shape [2, 5, 4, 4] : tensor<2x5x16xf32> into tensor<2x5x4x4xf32>
// CHECK: return %[[R]]
func.func @nchw(%img: tensor<2x3x9x9xf16>, %w: tensor<5x3x3x3xf16>, %acc: tensor<2x5x4x4xf32>) -> tensor<2x5x4x4xf32> {
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%img, %w : tensor<2x3x9x9xf16>, tensor<5x3x3x3xf16>) outs(%acc : tensor<2x5x4x4xf32>) -> tensor<2x5x4x4xf32>
  return %0 : tensor<2x5x4x4xf32>
}

// NHWC: N joins the pixels (no batch), the patches are the left operand;
// K = (kh, kw, c) as the HWCF filter stores it.
// CHECK-LABEL: func.func @nhwc
// CHECK: %[[P:.*]] = linalg.generic {indexing_maps = [#[[NHWC_PATCH]], {{.*}}} ins(%{{.*}} : tensor<1x10x10x3xf16>) outs(%{{.*}} : tensor<64x27xf16>)
// CHECK: %[[F:.*]] = linalg.generic {indexing_maps = [#[[NHWC_FILTER]], {{.*}}} ins(%{{.*}} : tensor<3x3x3x8xf16>) outs(%{{.*}} : tensor<8x27xf16>)
// CHECK: %[[C:.*]] = tensor.collapse_shape %{{.*}} {{\[}}[0, 1, 2], [3]] : tensor<1x8x8x8xf32> into tensor<64x8xf32>
// CHECK: linalg.generic {{.*}} ins(%[[P]], %[[F]] : tensor<64x27xf16>, tensor<8x27xf16>) outs(%[[C]] : tensor<64x8xf32>)
// CHECK: tensor.expand_shape {{.*}} {{\[}}[0, 1, 2], [3]] output_shape [1, 8, 8, 8]
func.func @nhwc(%img: tensor<1x10x10x3xf16>, %w: tensor<3x3x3x8xf16>, %acc: tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32> {
  %0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%img, %w : tensor<1x10x10x3xf16>, tensor<3x3x3x8xf16>) outs(%acc : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  return %0 : tensor<1x8x8x8xf32>
}

// Grouped (torch-mlir's filter gradients), dilation 2: N and the groups are
// one batch of 3 x 4, the filter gathered at the group (b mod 4).
// CHECK-LABEL: func.func @grouped
// CHECK: %[[P:.*]] = linalg.generic {{.*}} ins(%{{.*}} : tensor<3x4x1x11x11xbf16>) outs(%{{.*}} : tensor<12x49x9xbf16>)
// CHECK: %[[F:.*]] = linalg.generic {indexing_maps = [#[[GROUPED_FILTER]], #[[ID3]]], {{.*}} ins(%{{.*}} : tensor<4x6x1x3x3xbf16>) outs(%{{.*}} : tensor<12x6x9xbf16>)
// CHECK: %[[C:.*]] = tensor.collapse_shape %{{.*}} {{\[}}[0, 1], [2], [3, 4]] : tensor<3x4x6x7x7xf32> into tensor<12x6x49xf32>
// CHECK: linalg.generic {{.*}} ins(%[[F]], %[[P]] : tensor<12x6x9xbf16>, tensor<12x49x9xbf16>) outs(%[[C]] : tensor<12x6x49xf32>)
func.func @grouped(%img: tensor<3x4x1x11x11xbf16>, %w: tensor<4x6x1x3x3xbf16>, %acc: tensor<3x4x6x7x7xf32>) -> tensor<3x4x6x7x7xf32> {
  %0 = linalg.conv_2d_ngchw_gfchw {dilations = dense<2> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%img, %w : tensor<3x4x1x11x11xbf16>, tensor<4x6x1x3x3xbf16>) outs(%acc : tensor<3x4x6x7x7xf32>) -> tensor<3x4x6x7x7xf32>
  return %0 : tensor<3x4x6x7x7xf32>
}

// An f32 convolution (the fp32 policy) is a GEMM on CUDA cores alike: NHWC,
// the pixels (batch included) as M, the filter's channels as N.
// CHECK-LABEL: func.func @f32
// CHECK: %[[P:.*]] = linalg.generic {{.*}} ins(%arg0 : tensor<1x10x10x3xf32>) outs(%{{.*}} : tensor<64x27xf32>)
// CHECK: %[[F:.*]] = linalg.generic {{.*}} ins(%arg1 : tensor<3x3x3x8xf32>) outs(%{{.*}} : tensor<8x27xf32>)
// CHECK: linalg.generic {{.*}} ins(%[[P]], %[[F]] : tensor<64x27xf32>, tensor<8x27xf32>) outs(%{{.*}} : tensor<64x8xf32>)
// CHECK-NOT: linalg.conv
func.func @f32(%img: tensor<1x10x10x3xf32>, %w: tensor<3x3x3x8xf32>, %acc: tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32> {
  %0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%img, %w : tensor<1x10x10x3xf32>, tensor<3x3x3x8xf32>) outs(%acc : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  return %0 : tensor<1x8x8x8xf32>
}

// Left alone: mixed operand types, a
// depthwise convolution (no output channels: nothing to be N), one with a
// multiplier (its groups stored between the pixels and the channels), a
// convolution whose output stores the pixels on both sides of the channels.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: linalg.generic
// CHECK: linalg.conv_2d_nhwc_hwcf {{.*}} tensor<1x10x10x3xf16>, tensor<3x3x3x8xbf16>
// CHECK: linalg.depthwise_conv_2d_nhwc_hwc {
// CHECK: linalg.depthwise_conv_2d_nhwc_hwcm
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @left_alone(%img: tensor<1x10x10x3xf32>, %w: tensor<3x3x3x8xf32>, %acc: tensor<1x8x8x8xf32>, %img16: tensor<1x10x10x3xf16>, %wbf: tensor<3x3x3x8xbf16>, %wd: tensor<3x3x3xf16>, %accd: tensor<1x8x8x3xf32>, %wm: tensor<3x3x3x4xf16>, %accm: tensor<1x8x8x3x4xf32>, %x: tensor<10x10x3xf16>, %k: tensor<3x3x3x4xf16>, %o: tensor<8x4x8xf32>) -> (tensor<1x8x8x8xf32>, tensor<1x8x8x8xf32>, tensor<1x8x8x3xf32>, tensor<1x8x8x3x4xf32>, tensor<8x4x8xf32>) {
  %1 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%img16, %wbf : tensor<1x10x10x3xf16>, tensor<3x3x3x8xbf16>) outs(%acc : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  %2 = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%img16, %wd : tensor<1x10x10x3xf16>, tensor<3x3x3xf16>) outs(%accd : tensor<1x8x8x3xf32>) -> tensor<1x8x8x3xf32>
  %m = linalg.depthwise_conv_2d_nhwc_hwcm {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%img16, %wm : tensor<1x10x10x3xf16>, tensor<3x3x3x4xf16>) outs(%accm : tensor<1x8x8x3x4xf32>) -> tensor<1x8x8x3x4xf32>
  // Output rows and columns on both sides of the channels: [oh, f, ow].
  %3 = linalg.generic {indexing_maps = [affine_map<(oh, f, ow, kh, kw, c) -> (oh + kh, ow + kw, c)>, affine_map<(oh, f, ow, kh, kw, c) -> (kh, kw, c, f)>, affine_map<(oh, f, ow, kh, kw, c) -> (oh, f, ow)>], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%x, %k : tensor<10x10x3xf16>, tensor<3x3x3x4xf16>) outs(%o : tensor<8x4x8xf32>) {
  ^bb0(%a: f16, %b: f16, %acc0: f32):
    %ea = arith.extf %a : f16 to f32
    %eb = arith.extf %b : f16 to f32
    %p = arith.mulf %ea, %eb : f32
    %s = arith.addf %acc0, %p : f32
    linalg.yield %s : f32
  } -> tensor<8x4x8xf32>
  return %1, %1, %2, %m, %3 : tensor<1x8x8x8xf32>, tensor<1x8x8x8xf32>, tensor<1x8x8x3xf32>, tensor<1x8x8x3x4xf32>, tensor<8x4x8xf32>
}
