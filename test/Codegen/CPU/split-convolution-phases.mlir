// RUN: mp-opt %s --split-input-file --mp-split-convolution-phases | FileCheck %s

// The input gradient of a 3 x 3 convolution of stride 2 and padding 1, as
// torch-mlir exports it: the output gradient spread 2 apart from offset 1
// into zeros. Four phases (even/odd rows x even/odd columns); each reads the
// unspread gradient (padded after its end where a phase's last taps run past
// it) through every other tap, and accumulates into every other output of
// the tensor the phases are inserted into (one buffer after bufferization).
// CHECK-LABEL: func.func @nchw_stride2
// CHECK-SAME: (%[[DY:.*]]: tensor<2x3x4x4xf32>, %[[W:.*]]: tensor<5x3x3x3xf32>, %[[ACC:.*]]: tensor<2x5x8x8xf32>)
// Even rows, even columns: tap (1, 1) alone.
// CHECK: %[[T0:.*]] = tensor.extract_slice %[[W]][0, 0, 1, 1] [5, 3, 1, 1] [1, 1, 2, 2] : tensor<5x3x3x3xf32> to tensor<5x3x1x1xf32>
// CHECK: %[[A0:.*]] = tensor.extract_slice %[[ACC]][0, 0, 0, 0] [2, 5, 4, 4] [1, 1, 2, 2] : tensor<2x5x8x8xf32> to tensor<2x5x4x4xf32>
// CHECK: %[[C0:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%[[DY]], %[[T0]] : tensor<2x3x4x4xf32>, tensor<5x3x1x1xf32>) outs(%[[A0]] : tensor<2x5x4x4xf32>)
// CHECK: %[[R0:.*]] = tensor.insert_slice %[[C0]] into %[[ACC]][0, 0, 0, 0] [2, 5, 4, 4] [1, 1, 2, 2]
// Even rows, odd columns: taps (1, 0) and (1, 2), the second past the
// gradient's last column for the last output.
// CHECK: %[[P1:.*]] = tensor.pad %[[DY]] low[0, 0, 0, 0] high[0, 0, 0, 1]
// CHECK: %[[T1:.*]] = tensor.extract_slice %[[W]][0, 0, 1, 0] [5, 3, 1, 2] [1, 1, 2, 2] : tensor<5x3x3x3xf32> to tensor<5x3x1x2xf32>
// CHECK: %[[A1:.*]] = tensor.extract_slice %[[R0]][0, 0, 0, 1] [2, 5, 4, 4] [1, 1, 2, 2]
// CHECK: %[[C1:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%[[P1]], %[[T1]] : tensor<2x3x4x5xf32>, tensor<5x3x1x2xf32>) outs(%[[A1]] : tensor<2x5x4x4xf32>)
// CHECK: %[[R1:.*]] = tensor.insert_slice %[[C1]] into %[[R0]][0, 0, 0, 1] [2, 5, 4, 4] [1, 1, 2, 2]
// CHECK: %[[P2:.*]] = tensor.pad %[[DY]] low[0, 0, 0, 0] high[0, 0, 1, 0]
// CHECK: %[[T2:.*]] = tensor.extract_slice %[[W]][0, 0, 0, 1] [5, 3, 2, 1] [1, 1, 2, 2]
// CHECK: %[[A2:.*]] = tensor.extract_slice %[[R1]][0, 0, 1, 0] [2, 5, 4, 4] [1, 1, 2, 2]
// CHECK: %[[C2:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%[[P2]], %[[T2]] : tensor<2x3x5x4xf32>, tensor<5x3x2x1xf32>)
// CHECK: %[[R2:.*]] = tensor.insert_slice %[[C2]] into %[[R1]][0, 0, 1, 0] [2, 5, 4, 4] [1, 1, 2, 2]
// CHECK: %[[P3:.*]] = tensor.pad %[[DY]] low[0, 0, 0, 0] high[0, 0, 1, 1]
// CHECK: %[[T3:.*]] = tensor.extract_slice %[[W]][0, 0, 0, 0] [5, 3, 2, 2] [1, 1, 2, 2]
// CHECK: %[[A3:.*]] = tensor.extract_slice %[[R2]][0, 0, 1, 1] [2, 5, 4, 4] [1, 1, 2, 2]
// CHECK: %[[C3:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%[[P3]], %[[T3]] : tensor<2x3x5x5xf32>, tensor<5x3x2x2xf32>)
// CHECK: %[[R3:.*]] = tensor.insert_slice %[[C3]] into %[[R2]][0, 0, 1, 1] [2, 5, 4, 4] [1, 1, 2, 2]
// CHECK: return %[[R3]]
// The spread image is gone.
// CHECK-NOT: tensor<2x3x10x10xf32>
func.func @nchw_stride2(%dy: tensor<2x3x4x4xf32>, %w: tensor<5x3x3x3xf32>, %acc: tensor<2x5x8x8xf32>) -> tensor<2x5x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x3x10x10xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x3x10x10xf32>) -> tensor<2x3x10x10xf32>
  %img = tensor.insert_slice %dy into %z[0, 0, 1, 1] [2, 3, 4, 4] [1, 1, 2, 2] : tensor<2x3x4x4xf32> into tensor<2x3x10x10xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%img, %w : tensor<2x3x10x10xf32>, tensor<5x3x3x3xf32>) outs(%acc : tensor<2x5x8x8xf32>) -> tensor<2x5x8x8xf32>
  return %c : tensor<2x5x8x8xf32>
}

// -----

// 1-d NWC, spread 3 apart from offset 4 with 2 taps: the outputs 3u and
// 3u + 1 start one element before the source (padded before it), the
// outputs 3u + 2 meet no element (their taps would be 2, 5...: none) and
// keep the accumulator's values. A constant of zeros as the destination,
// mixed-precision operands.
// CHECK-LABEL: func.func @nwc_stride3
// CHECK-SAME: (%[[X:.*]]: tensor<1x4x2xf16>, %[[W:.*]]: tensor<2x2x3xf16>, %[[ACC:.*]]: tensor<1x13x3xf32>)
// CHECK: %[[P0:.*]] = tensor.pad %[[X]] low[0, 1, 0] high[0, 0, 0]
// CHECK: %[[T0:.*]] = tensor.extract_slice %[[W]][1, 0, 0] [1, 2, 3] [3, 1, 1] : tensor<2x2x3xf16> to tensor<1x2x3xf16>
// CHECK: %[[A0:.*]] = tensor.extract_slice %[[ACC]][0, 0, 0] [1, 5, 3] [1, 3, 1] : tensor<1x13x3xf32> to tensor<1x5x3xf32>
// CHECK: %[[C0:.*]] = linalg.conv_1d_nwc_wcf {{.*}} ins(%[[P0]], %[[T0]] : tensor<1x5x2xf16>, tensor<1x2x3xf16>) outs(%[[A0]] : tensor<1x5x3xf32>)
// CHECK: %[[R0:.*]] = tensor.insert_slice %[[C0]] into %[[ACC]][0, 0, 0] [1, 5, 3] [1, 3, 1]
// CHECK: %[[P1:.*]] = tensor.pad %[[X]] low[0, 1, 0] high[0, 0, 0]
// CHECK: %[[I1:.*]] = tensor.extract_slice %[[P1]][0, 0, 0] [1, 4, 2] [1, 1, 1] : tensor<1x5x2xf16> to tensor<1x4x2xf16>
// CHECK: %[[T1:.*]] = tensor.extract_slice %[[W]][0, 0, 0] [1, 2, 3] [3, 1, 1] : tensor<2x2x3xf16> to tensor<1x2x3xf16>
// CHECK: %[[A1:.*]] = tensor.extract_slice %[[R0]][0, 1, 0] [1, 4, 3] [1, 3, 1] : tensor<1x13x3xf32> to tensor<1x4x3xf32>
// CHECK: %[[C1:.*]] = linalg.conv_1d_nwc_wcf {{.*}} ins(%[[I1]], %[[T1]] : tensor<1x4x2xf16>, tensor<1x2x3xf16>) outs(%[[A1]] : tensor<1x4x3xf32>)
// CHECK: %[[R1:.*]] = tensor.insert_slice %[[C1]] into %[[R0]][0, 1, 0] [1, 4, 3] [1, 3, 1]
// CHECK: return %[[R1]]
func.func @nwc_stride3(%x: tensor<1x4x2xf16>, %w: tensor<2x2x3xf16>, %acc: tensor<1x13x3xf32>) -> tensor<1x13x3xf32> {
  %z = arith.constant dense<0.0> : tensor<1x14x2xf16>
  %img = tensor.insert_slice %x into %z[0, 4, 0] [1, 4, 2] [1, 3, 1] : tensor<1x4x2xf16> into tensor<1x14x2xf16>
  %c = linalg.conv_1d_nwc_wcf {dilations = dense<1> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>}
      ins(%img, %w : tensor<1x14x2xf16>, tensor<2x2x3xf16>) outs(%acc : tensor<1x13x3xf32>) -> tensor<1x13x3xf32>
  return %c : tensor<1x13x3xf32>
}

// -----

// Left alone: a destination that is not zeros; a convolution of stride 2
// along the spread dimension (its image index is not output + tap); an
// insertion that is partial along a dimension it does not spread;
// insertions of stride 0 and -3 (they verify, and spread nothing).
// CHECK-LABEL: func.func @not_zeros
// CHECK: tensor.insert_slice
// CHECK: linalg.conv_1d_nwc_wcf {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x12x2xf32>, tensor<2x2x3xf32>)
// CHECK-LABEL: func.func @strided_conv
// CHECK: tensor.insert_slice
// CHECK: linalg.conv_1d_nwc_wcf {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x12x2xf32>, tensor<2x2x3xf32>)
// CHECK-LABEL: func.func @partial_channels
// CHECK: tensor.insert_slice
// CHECK: linalg.conv_1d_nwc_wcf {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x12x4xf32>, tensor<2x4x3xf32>)
// CHECK-LABEL: func.func @odd_strides
// CHECK: tensor.insert_slice {{.*}} [1, 0, 1]
// CHECK: tensor.insert_slice {{.*}} [1, -3, 1]
// CHECK-COUNT-2: linalg.conv_1d_nwc_wcf {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x12x2xf32>, tensor<2x2x3xf32>)
// An output of dynamic channels (the phases slice the output; found by the
// pipeline fuzzer, whose input made an extract_slice that failed
// verification) stays one convolution.
// CHECK-LABEL: func.func @dynamic_output
// CHECK: tensor.insert_slice
// CHECK: linalg.conv_1d_nwc_wcf {{.*}} outs(%{{.*}} : tensor<1x11x?xf32>)
func.func @not_zeros(%x: tensor<1x4x2xf32>, %w: tensor<2x2x3xf32>, %acc: tensor<1x11x3xf32>) -> tensor<1x11x3xf32> {
  %one = arith.constant dense<1.0> : tensor<1x12x2xf32>
  %img = tensor.insert_slice %x into %one[0, 0, 0] [1, 4, 2] [1, 3, 1] : tensor<1x4x2xf32> into tensor<1x12x2xf32>
  %c = linalg.conv_1d_nwc_wcf {dilations = dense<1> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>}
      ins(%img, %w : tensor<1x12x2xf32>, tensor<2x2x3xf32>) outs(%acc : tensor<1x11x3xf32>) -> tensor<1x11x3xf32>
  return %c : tensor<1x11x3xf32>
}

func.func @strided_conv(%x: tensor<1x4x2xf32>, %w: tensor<2x2x3xf32>, %acc: tensor<1x6x3xf32>) -> tensor<1x6x3xf32> {
  %z = arith.constant dense<0.0> : tensor<1x12x2xf32>
  %img = tensor.insert_slice %x into %z[0, 0, 0] [1, 4, 2] [1, 3, 1] : tensor<1x4x2xf32> into tensor<1x12x2xf32>
  %c = linalg.conv_1d_nwc_wcf {dilations = dense<1> : tensor<1xi64>, strides = dense<2> : tensor<1xi64>}
      ins(%img, %w : tensor<1x12x2xf32>, tensor<2x2x3xf32>) outs(%acc : tensor<1x6x3xf32>) -> tensor<1x6x3xf32>
  return %c : tensor<1x6x3xf32>
}

func.func @partial_channels(%x: tensor<1x4x2xf32>, %w: tensor<2x4x3xf32>, %acc: tensor<1x11x3xf32>) -> tensor<1x11x3xf32> {
  %z = arith.constant dense<0.0> : tensor<1x12x4xf32>
  %img = tensor.insert_slice %x into %z[0, 0, 0] [1, 4, 2] [1, 3, 1] : tensor<1x4x2xf32> into tensor<1x12x4xf32>
  %c = linalg.conv_1d_nwc_wcf {dilations = dense<1> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>}
      ins(%img, %w : tensor<1x12x4xf32>, tensor<2x4x3xf32>) outs(%acc : tensor<1x11x3xf32>) -> tensor<1x11x3xf32>
  return %c : tensor<1x11x3xf32>
}

func.func @odd_strides(%x: tensor<1x4x2xf32>, %w: tensor<2x2x3xf32>, %acc: tensor<1x11x3xf32>) -> (tensor<1x11x3xf32>, tensor<1x11x3xf32>) {
  %z = arith.constant dense<0.0> : tensor<1x12x2xf32>
  %zero = tensor.insert_slice %x into %z[0, 0, 0] [1, 4, 2] [1, 0, 1] : tensor<1x4x2xf32> into tensor<1x12x2xf32>
  %back = tensor.insert_slice %x into %z[0, 11, 0] [1, 4, 2] [1, -3, 1] : tensor<1x4x2xf32> into tensor<1x12x2xf32>
  %c = linalg.conv_1d_nwc_wcf {dilations = dense<1> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>}
      ins(%zero, %w : tensor<1x12x2xf32>, tensor<2x2x3xf32>) outs(%acc : tensor<1x11x3xf32>) -> tensor<1x11x3xf32>
  %d = linalg.conv_1d_nwc_wcf {dilations = dense<1> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>}
      ins(%back, %w : tensor<1x12x2xf32>, tensor<2x2x3xf32>) outs(%acc : tensor<1x11x3xf32>) -> tensor<1x11x3xf32>
  return %c, %d : tensor<1x11x3xf32>, tensor<1x11x3xf32>
}

func.func @dynamic_output(%x: tensor<1x4x2xf32>, %w: tensor<2x2x3xf32>, %acc: tensor<1x11x?xf32>) -> tensor<1x11x?xf32> {
  %z = arith.constant dense<0.0> : tensor<1x12x2xf32>
  %img = tensor.insert_slice %x into %z[0, 0, 0] [1, 4, 2] [1, 3, 1] : tensor<1x4x2xf32> into tensor<1x12x2xf32>
  %c = linalg.conv_1d_nwc_wcf {dilations = dense<1> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>}
      ins(%img, %w : tensor<1x12x2xf32>, tensor<2x2x3xf32>) outs(%acc : tensor<1x11x?xf32>) -> tensor<1x11x?xf32>
  return %c : tensor<1x11x?xf32>
}
