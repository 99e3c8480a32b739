// RUN: mp-opt %s --split-input-file --mp-conv-to-gemm | FileCheck %s
// RUN: mp-opt %s --split-input-file --mp-conv-to-gemm=tile-n=8 | FileCheck %s --check-prefix=N8
// RUN: not mp-opt %s --split-input-file --mp-conv-to-gemm=tile-k=0 2>&1 | FileCheck %s --check-prefix=BAD

// NCHW, stride 2: the filter is M x K (K = c, kh, kw as FCHW stores it: a
// collapse, no copy), the patches K x N with the images among the pixels
// (N = n, oh, ow), the output's initial value M x N; each gather has one
// loop per convolution loop (no divisions) and is collapsed. The product
// goes back to NCHW through a permutation.
// CHECK-DAG: #[[PATCH:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d0, d1 + d4 * 2, d2 + d5 * 2)>
// CHECK-DAG: #[[ID6:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4, d5)>
// CHECK-DAG: #[[SWAP:.*]] = affine_map<(d0, d1, d2, d3) -> (d1, d0, d2, d3)>
// CHECK-DAG: #[[ID4:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[LHS:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[RHS:.*]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @nchw
// CHECK-SAME: (%[[IMG:.*]]: tensor<2x3x9x9xf32>, %[[W:.*]]: tensor<4x3x3x3xf32>, %[[INIT:.*]]: tensor<2x4x4x4xf32>)
// CHECK: %[[F:.*]] = tensor.collapse_shape %[[W]] {{\[}}[0], [1, 2, 3]] : tensor<4x3x3x3xf32> into tensor<4x27xf32>
// CHECK: %[[P:.*]] = linalg.generic {indexing_maps = [#[[PATCH]], #[[ID6]]], {{.*}} ins(%[[IMG]] : tensor<2x3x9x9xf32>) outs(%{{.*}} : tensor<3x3x3x2x4x4xf32>)
// CHECK: %[[PM:.*]] = tensor.collapse_shape %[[P]] {{\[}}[0, 1, 2], [3, 4, 5]] : tensor<3x3x3x2x4x4xf32> into tensor<27x32xf32>
// CHECK: %[[C:.*]] = linalg.generic {indexing_maps = [#[[SWAP]], #[[ID4]]], {{.*}} ins(%[[INIT]] : tensor<2x4x4x4xf32>) outs(%{{.*}} : tensor<4x2x4x4xf32>)
// CHECK: %[[CM:.*]] = tensor.collapse_shape %[[C]] {{\[}}[0], [1, 2, 3]] : tensor<4x2x4x4xf32> into tensor<4x32xf32>
// CHECK: %[[G:.*]] = linalg.generic {indexing_maps = [#[[LHS]], #[[RHS]], #[[OUT]]], iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[F]], %[[PM]] : tensor<4x27xf32>, tensor<27x32xf32>) outs(%[[CM]] : tensor<4x32xf32>)
// CHECK-NEXT: ^bb0(%[[FE:.*]]: f32, %[[PE:.*]]: f32, %[[O:.*]]: f32):
// CHECK-NEXT: %[[M:.*]] = arith.mulf %[[PE]], %[[FE]] : f32
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[O]], %[[M]] : f32
// CHECK-NEXT: linalg.yield %[[S]] : f32
// CHECK: %[[X:.*]] = tensor.expand_shape %[[G]] {{\[}}[0], [1, 2, 3]] output_shape [4, 2, 4, 4] : tensor<4x32xf32> into tensor<4x2x4x4xf32>
// The product is written into the output's own tensor (the body does not
// read it), in place where that is a slice of a larger one.
// CHECK: %[[R:.*]] = linalg.generic {indexing_maps = [#[[SWAP]], #[[ID4]]], {{.*}} ins(%[[X]] : tensor<4x2x4x4xf32>) outs(%[[INIT]] : tensor<2x4x4x4xf32>)
// CHECK: return %[[R]]
// N8-LABEL: func.func @nchw
// N8-NOT: linalg.conv
func.func @nchw(%img: tensor<2x3x9x9xf32>, %w: tensor<4x3x3x3xf32>, %acc: tensor<2x4x4x4xf32>) -> tensor<2x4x4x4xf32> {
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%img, %w : tensor<2x3x9x9xf32>, tensor<4x3x3x3xf32>) outs(%acc : tensor<2x4x4x4xf32>) -> tensor<2x4x4x4xf32>
  return %0 : tensor<2x4x4x4xf32>
}

// -----

// Grouped (NGCHW x GFCHW, torch-mlir's filter gradients): one GEMM per
// group, the group loop first in all three operands.
// CHECK-DAG: #[[GPATCH:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d0, d1, d2 + d5, d3 + d6)>
// CHECK-DAG: #[[GACC:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d2, d0, d1, d3, d4)>
// CHECK-DAG: #[[GLHS:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
// CHECK-DAG: #[[GRHS:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>
// CHECK-DAG: #[[GOUT:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-DAG: #[[GBACK:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d1, d2, d0, d3, d4)>
// CHECK-LABEL: func.func @grouped
// CHECK: tensor.collapse_shape %{{.*}} {{\[}}[0], [1], [2, 3, 4]] : tensor<3x4x2x3x3xf32> into tensor<3x4x18xf32>
// CHECK: linalg.generic {indexing_maps = [#[[GPATCH]], {{.*}} outs(%{{.*}} : tensor<3x2x3x3x2x4x4xf32>)
// CHECK: tensor.collapse_shape %{{.*}} {{\[}}[0], [1, 2, 3], [4, 5, 6]] : tensor<3x2x3x3x2x4x4xf32> into tensor<3x18x32xf32>
// CHECK: linalg.generic {indexing_maps = [#[[GACC]], {{.*}} outs(%{{.*}} : tensor<3x4x2x4x4xf32>)
// CHECK: linalg.generic {indexing_maps = [#[[GLHS]], #[[GRHS]], #[[GOUT]]], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} {{.*}} outs(%{{.*}} : tensor<3x4x32xf32>)
// CHECK: tensor.expand_shape %{{.*}} {{\[}}[0], [1], [2, 3, 4]] output_shape [3, 4, 2, 4, 4]
// CHECK: linalg.generic {indexing_maps = [#[[GBACK]], {{.*}} outs(%{{.*}} : tensor<2x3x4x4x4xf32>)
func.func @grouped(%img: tensor<2x3x2x6x6xf32>, %w: tensor<3x4x2x3x3xf32>, %acc: tensor<2x3x4x4x4xf32>) -> tensor<2x3x4x4x4xf32> {
  %c = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%img, %w : tensor<2x3x2x6x6xf32>, tensor<3x4x2x3x3xf32>) outs(%acc : tensor<2x3x4x4x4xf32>) -> tensor<2x3x4x4x4xf32>
  return %c : tensor<2x3x4x4x4xf32>
}

// -----

// Left as loops: 49 pixels (no multiple of tile-n = 16; of 8 neither).
// CHECK-LABEL: func.func @odd_pixels
// CHECK: linalg.conv_2d_nchw_fchw
// N8-LABEL: func.func @odd_pixels
// N8: linalg.conv_2d_nchw_fchw
func.func @odd_pixels(%img: tensor<1x3x9x9xf32>, %w: tensor<4x3x3x3xf32>, %acc: tensor<1x4x7x7xf32>) -> tensor<1x4x7x7xf32> {
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%img, %w : tensor<1x3x9x9xf32>, tensor<4x3x3x3xf32>) outs(%acc : tensor<1x4x7x7xf32>) -> tensor<1x4x7x7xf32>
  return %c : tensor<1x4x7x7xf32>
}

// -----

// 24 pixels: a multiple of 8, not of 16.
// CHECK-LABEL: func.func @pixels_of_8
// CHECK: linalg.conv_2d_nhwc_hwcf
// N8-LABEL: func.func @pixels_of_8
// N8-NOT: linalg.conv
// N8: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]} {{.*}} outs(%{{.*}} : tensor<4x24xf32>)
func.func @pixels_of_8(%img: tensor<1x6x8x2xf32>, %w: tensor<3x3x2x4xf32>, %acc: tensor<1x4x6x4xf32>) -> tensor<1x4x6x4xf32> {
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%img, %w : tensor<1x6x8x2xf32>, tensor<3x3x2x4xf32>) outs(%acc : tensor<1x4x6x4xf32>) -> tensor<1x4x6x4xf32>
  return %c : tensor<1x4x6x4xf32>
}

// -----

// Left as loops: a depthwise convolution (no output channels: every output
// loop indexes the image) and operands of two element types (before
// mp-widen-contraction-operands).
// CHECK-LABEL: func.func @depthwise
// CHECK: linalg.depthwise_conv_2d_nhwc_hwc
// CHECK-LABEL: func.func @mixed_types
// CHECK: linalg.conv_2d_nchw_fchw
func.func @depthwise(%img: tensor<2x10x10x4xf32>, %w: tensor<3x3x4xf32>, %acc: tensor<2x8x8x4xf32>) -> tensor<2x8x8x4xf32> {
  %c = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%img, %w : tensor<2x10x10x4xf32>, tensor<3x3x4xf32>) outs(%acc : tensor<2x8x8x4xf32>) -> tensor<2x8x8x4xf32>
  return %c : tensor<2x8x8x4xf32>
}
func.func @mixed_types(%img: tensor<2x3x9x9xf16>, %w: tensor<4x3x3x3xf32>, %acc: tensor<2x4x4x4xf32>) -> tensor<2x4x4x4xf32> {
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%img, %w : tensor<2x3x9x9xf16>, tensor<4x3x3x3xf32>) outs(%acc : tensor<2x4x4x4xf32>) -> tensor<2x4x4x4xf32>
  return %0 : tensor<2x4x4x4xf32>
}

// BAD: error: mp-conv-to-gemm: tile-n and tile-k must be positive
