// mp-amp-pipeline on the example attention block and conv block.
// RUN: mp-opt %mp_src/examples/attention.mlir --pass-pipeline='builtin.module(mp-amp-pipeline{policy=fp16})' | FileCheck %s
// RUN: mp-opt %mp_src/examples/attention.mlir --pass-pipeline='builtin.module(mp-amp-pipeline{policy=bf16})' | FileCheck %s --check-prefix=BF16
// RUN: mp-opt %mp_src/examples/conv_block.mlir --pass-pipeline='builtin.module(mp-amp-pipeline{policy=fp16})' 2>&1 | FileCheck %s --check-prefix=CONV
// RUN: not mp-opt %mp_src/examples/attention.mlir --pass-pipeline='builtin.module(func.func(mp-amp-pipeline))' 2>&1 | FileCheck %s --check-prefix=NESTED
// NESTED: error: mp-amp-pipeline runs on 'builtin.module', not nested under 'func.func': write --pass-pipeline='builtin.module(mp-amp-pipeline{...})'

// Attention block: layer norm (statistics in f32), Q/K/V projections,
// softmax (f32), GELU (tanh form, follows its neighbours).
// CHECK-LABEL: func.func @attention
// CHECK-SAME: -> tensor<16x32xf32>
// Layer norm statistics and normalization stay f32.
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : tensor<16x32xf32>) outs(%{{.*}} : tensor<16xf32>)
// CHECK: math.rsqrt %{{.*}} : f32
// Projections take f16 inputs and accumulate in f32.
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<16x32xf16>, tensor<32x32xf16>) outs(%{{.*}} : tensor<16x32xf32>)
// CHECK: linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<2x16x16xf16>, tensor<2x16x16xf16>) outs(%{{.*}} : tensor<2x16x16xf32>)
// CHECK: linalg.softmax dimension(2) ins(%{{.*}} : tensor<2x16x16xf32>) outs(%{{.*}} : tensor<2x16x16xf32>)
// CHECK: linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<2x16x16xf16>, tensor<2x16x16xf16>) outs(%{{.*}} : tensor<2x16x16xf32>)
// GELU between two matmuls computes in f16.
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : tensor<16x32xf16>) outs(%{{.*}} : tensor<16x32xf16>)
// CHECK: math.tanh %{{.*}} : f16
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<16x32xf16>, tensor<32x32xf16>) outs(%{{.*}} : tensor<16x32xf32>)
// CHECK: return %{{.*}} : tensor<16x32xf32>
// BF16-LABEL: func.func @attention
// BF16: linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<2x16x16xbf16>, tensor<2x16x16xbf16>) outs(%{{.*}} : tensor<2x16x16xf32>)
// BF16: linalg.softmax dimension(2) ins(%{{.*}} : tensor<2x16x16xf32>)

// A conv block: convolution (f16 inputs, f32 accumulator), bias and ReLU
// between convolutions in f16, max pooling in f16, a sum (f32) at the end.
// CONV-LABEL: func.func @conv_block
// CONV: linalg.conv_2d_nhwc_hwcf {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x10x10x3xf16>, tensor<3x3x3x8xf16>) outs(%{{.*}} : tensor<1x8x8x8xf32>)
// CONV: linalg.max ins(%{{.*}}, %{{.*}} : tensor<1x8x8x8xf16>, tensor<1x8x8x8xf16>)
// CONV: linalg.pooling_nhwc_max {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x8x8x8xf16>, tensor<2x2xf16>) outs(%{{.*}} : tensor<1x4x4x8xf16>)
// CONV: linalg.conv_2d_nhwc_hwcf {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x4x4x8xf16>, tensor<3x3x8x4xf16>) outs(%{{.*}} : tensor<1x2x2x4xf32>)
// CONV: linalg.pooling_nhwc_sum {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x2x2x4xf32>, tensor<2x2xf32>) outs(%{{.*}} : tensor<1x1x1x4xf32>)
