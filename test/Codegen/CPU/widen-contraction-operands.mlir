// RUN: mp-opt %s --split-input-file --mp-widen-contraction-operands | FileCheck %s
// RUN: mp-opt %s --split-input-file --mp-widen-contraction-operands --linalg-generalize-named-ops | FileCheck %s --check-prefix=BODY
// RUN: mp-opt %s --split-input-file --mp-widen-contraction-operands=keep-bf16-convolutions=true | FileCheck %s --check-prefix=KEEP

// f16 inputs of a named convolution with an f32 accumulator are widened once
// per tensor, and the body multiplies f32 values.
// CHECK-LABEL: func.func @conv
// CHECK-SAME: %[[X:[^:]+]]: tensor<1x2x5x5xf16>, %[[W:[^:]+]]: tensor<3x2x3x3xf16>
// CHECK: %[[X32:.*]] = linalg.generic {{.*}} ins(%[[X]] : tensor<1x2x5x5xf16>) outs(%{{.*}} : tensor<1x2x5x5xf32>)
// CHECK: arith.extf %{{.*}} : f16 to f32
// CHECK: %[[W32:.*]] = linalg.generic {{.*}} ins(%[[W]] : tensor<3x2x3x3xf16>) outs(%{{.*}} : tensor<3x2x3x3xf32>)
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} ins(%[[X32]], %[[W32]] : tensor<1x2x5x5xf32>, tensor<3x2x3x3xf32>) outs(%{{.*}} : tensor<1x3x3x3xf32>)
// BODY-LABEL: func.func @conv
// BODY: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x2x5x5xf32>, tensor<3x2x3x3xf32>) outs(%{{.*}} : tensor<1x3x3x3xf32>)
// BODY-NEXT: ^bb0(%[[A:[^:]+]]: f32, %[[B:[^:]+]]: f32, %[[C:[^:]+]]: f32):
// BODY-NEXT: %[[M:.*]] = arith.mulf %[[A]], %[[B]] : f32
// BODY-NEXT: %[[S:.*]] = arith.addf %[[C]], %[[M]] : f32
// BODY-NEXT: linalg.yield %[[S]] : f32
func.func @conv(%x: tensor<1x2x5x5xf16>, %w: tensor<3x2x3x3xf16>, %acc: tensor<1x3x3x3xf32>) -> tensor<1x3x3x3xf32> {
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x2x5x5xf16>, tensor<3x2x3x3xf16>) outs(%acc : tensor<1x3x3x3xf32>) -> tensor<1x3x3x3xf32>
  return %0 : tensor<1x3x3x3xf32>
}

// -----

// Only the low-precision input is widened (bf16 too).
// CHECK-LABEL: func.func @depthwise_mixed
// CHECK-SAME: %[[X:[^:]+]]: tensor<1x6x6x4xbf16>, %[[W:[^:]+]]: tensor<3x3x4xf32>
// CHECK: %[[X32:.*]] = linalg.generic {{.*}} ins(%[[X]] : tensor<1x6x6x4xbf16>)
// CHECK: linalg.depthwise_conv_2d_nhwc_hwc {{.*}} ins(%[[X32]], %[[W]] : tensor<1x6x6x4xf32>, tensor<3x3x4xf32>)
func.func @depthwise_mixed(%x: tensor<1x6x6x4xbf16>, %w: tensor<3x3x4xf32>, %acc: tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32> {
  %0 = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x6x6x4xbf16>, tensor<3x3x4xf32>) outs(%acc : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  return %0 : tensor<1x4x4x4xf32>
}

// -----

// Left alone: an f16 accumulator (the op computes in f16).
// CHECK-LABEL: func.func @untouched
// CHECK-NOT: linalg.generic
// CHECK: linalg.conv_2d_nchw_fchw{{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x1x4x4xf16>, tensor<1x1x3x3xf16>) outs(%{{.*}} : tensor<1x1x2x2xf16>)
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<4x8xf16>, tensor<8x4xf16>) outs(%{{.*}} : tensor<4x4xf16>)
func.func @untouched(%x: tensor<1x1x4x4xf16>, %w: tensor<1x1x3x3xf16>, %acc: tensor<1x1x2x2xf16>,
                     %a: tensor<4x8xf16>, %b: tensor<8x4xf16>, %c: tensor<4x4xf16>) -> (tensor<1x1x2x2xf16>, tensor<4x4xf16>) {
  %0 = linalg.conv_2d_nchw_fchw ins(%x, %w : tensor<1x1x4x4xf16>, tensor<1x1x3x3xf16>) outs(%acc : tensor<1x1x2x2xf16>) -> tensor<1x1x2x2xf16>
  %1 = linalg.matmul ins(%a, %b : tensor<4x8xf16>, tensor<8x4xf16>) outs(%c : tensor<4x4xf16>) -> tensor<4x4xf16>
  return %0, %1 : tensor<1x1x2x2xf16>, tensor<4x4xf16>
}

// -----

// Contractions too: a matmul and a batch matmul with f16/bf16 inputs and an
// f32 accumulator take widened inputs and multiply f32 values.
// CHECK-LABEL: func.func @contractions
// CHECK-SAME: %[[A:[^:]+]]: tensor<4x8xf16>, %[[B:[^:]+]]: tensor<8x4xf16>
// CHECK: %[[A32:.*]] = linalg.generic {{.*}} ins(%[[A]] : tensor<4x8xf16>) outs(%{{.*}} : tensor<4x8xf32>)
// CHECK: %[[B32:.*]] = linalg.generic {{.*}} ins(%[[B]] : tensor<8x4xf16>) outs(%{{.*}} : tensor<8x4xf32>)
// CHECK: linalg.matmul ins(%[[A32]], %[[B32]] : tensor<4x8xf32>, tensor<8x4xf32>)
// CHECK: linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<2x4x8xf32>, tensor<2x8x4xf32>)
// BODY-LABEL: func.func @contractions
// BODY: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<8x4xf32>) outs(%{{.*}} : tensor<4x4xf32>)
// BODY-NEXT: ^bb0(%[[X:[^:]+]]: f32, %[[Y:[^:]+]]: f32, %[[Z:[^:]+]]: f32):
// BODY-NEXT: %[[M:.*]] = arith.mulf %[[X]], %[[Y]] : f32
// BODY-NEXT: %[[S:.*]] = arith.addf %[[Z]], %[[M]] : f32
// BODY-NEXT: linalg.yield %[[S]] : f32
func.func @contractions(%a: tensor<4x8xf16>, %b: tensor<8x4xf16>, %c: tensor<4x4xf32>,
                        %d: tensor<2x4x8xbf16>, %e: tensor<2x8x4xbf16>, %f: tensor<2x4x4xf32>) -> (tensor<4x4xf32>, tensor<2x4x4xf32>) {
  %0 = linalg.matmul ins(%a, %b : tensor<4x8xf16>, tensor<8x4xf16>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  %1 = linalg.batch_matmul ins(%d, %e : tensor<2x4x8xbf16>, tensor<2x8x4xbf16>) outs(%f : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  return %0, %1 : tensor<4x4xf32>, tensor<2x4x4xf32>
}

// -----

// keep-bf16-convolutions: a bf16 convolution of 2 x 3 x 3 = 18 reduction
// steps stays bf16 (mp-conv-to-gemm makes it a GEMM of bf16 pairs); one of
// 1 x 3 x 3 = 9 steps, and f16 ones, are widened as always.
// CHECK-LABEL: func.func @bf16_convs
// CHECK-COUNT-3: linalg.conv_2d_nchw_fchw {{.*}} tensor<{{.*}}xf32>, tensor<{{.*}}xf32>)
// KEEP-LABEL: func.func @bf16_convs
// KEEP: linalg.conv_2d_nchw_fchw {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x2x5x5xbf16>, tensor<3x2x3x3xbf16>)
// KEEP: linalg.conv_2d_nchw_fchw {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x1x5x5xf32>, tensor<3x1x3x3xf32>)
// KEEP: linalg.conv_2d_nchw_fchw {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x2x5x5xf32>, tensor<3x2x3x3xf32>)
func.func @bf16_convs(%x: tensor<1x2x5x5xbf16>, %w: tensor<3x2x3x3xbf16>, %x1: tensor<1x1x5x5xbf16>, %w1: tensor<3x1x3x3xbf16>,
                      %xh: tensor<1x2x5x5xf16>, %wh: tensor<3x2x3x3xf16>, %acc: tensor<1x3x3x3xf32>)
    -> (tensor<1x3x3x3xf32>, tensor<1x3x3x3xf32>, tensor<1x3x3x3xf32>) {
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x2x5x5xbf16>, tensor<3x2x3x3xbf16>) outs(%acc : tensor<1x3x3x3xf32>) -> tensor<1x3x3x3xf32>
  %1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x1, %w1 : tensor<1x1x5x5xbf16>, tensor<3x1x3x3xbf16>) outs(%acc : tensor<1x3x3x3xf32>) -> tensor<1x3x3x3xf32>
  %2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%xh, %wh : tensor<1x2x5x5xf16>, tensor<3x2x3x3xf16>) outs(%acc : tensor<1x3x3x3xf32>) -> tensor<1x3x3x3xf32>
  return %0, %1, %2 : tensor<1x3x3x3xf32>, tensor<1x3x3x3xf32>, tensor<1x3x3x3xf32>
}
