// RUN: mp-opt %s --split-input-file --mp-gpu-library-conv --canonicalize --cse | FileCheck %s
// RUN: mp-opt %S/Inputs/library-conv-errors.mlir --split-input-file --verify-diagnostics --mp-gpu-library-conv
// RUN: mp-opt %s --split-input-file --mp-gpu-library-conv=emulate=true | FileCheck %s --check-prefix=EMULATE --implicit-check-not=@mp_cuda_

// Arguments: type (0 f16, 1 bf16), kind (0 forward, 1 backward data),
// channels-last, spatial dimensions, groups, N, C, K, then per spatial
// dimension (3) the image's size, the window's, the stride, the dilation
// and the padding, and the addresses of x (the image), w and y (the f16
// result of a forward call). The zero fill of an accumulator allocated here
// is dropped: the result is only widened into it.
// CHECK-LABEL: func.func private @mp_cuda_conv(i32, i32, i32, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64) attributes {mp.gpu_stream_ordered}
// CHECK-LABEL: func.func @nchw_zero_fill
// CHECK-DAG: %[[I0:.*]] = arith.constant 0 : i32
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : i64
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : i64
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : i64
// CHECK-DAG: %[[C3:.*]] = arith.constant 3 : i64
// CHECK-DAG: %[[C8:.*]] = arith.constant 8 : i64
// CHECK-DAG: %[[C16:.*]] = arith.constant 16 : i64
// CHECK-DAG: %[[C64:.*]] = arith.constant 64 : i64
// CHECK: %[[ACC:.*]] = memref.alloc() : memref<64x16x7x7xf32>
// CHECK: %[[Y:.*]] = memref.alloc() : memref<64x16x7x7xf16>
// CHECK: %[[PX:.*]] = memref.extract_aligned_pointer_as_index %arg0
// CHECK: %[[X:.*]] = arith.index_cast %[[PX]]
// CHECK: %[[PW:.*]] = memref.extract_aligned_pointer_as_index %arg1
// CHECK: %[[W:.*]] = arith.index_cast %[[PW]]
// CHECK: %[[PY:.*]] = memref.extract_aligned_pointer_as_index %[[Y]]
// CHECK: %[[YA:.*]] = arith.index_cast %[[PY]]
// CHECK: call @mp_cuda_conv(%[[I0]], %[[I0]], %[[I0]], %[[C2]], %[[C1]], %[[C64]], %[[C8]], %[[C16]], %[[C16]], %[[C16]], %[[C1]], %[[C3]], %[[C3]], %[[C1]], %[[C2]], %[[C2]], %[[C1]], %[[C1]], %[[C1]], %[[C1]], %[[C0]], %[[C0]], %[[C0]], %[[X]], %[[W]], %[[YA]])
// CHECK: linalg.generic
// CHECK-SAME: ins(%[[Y]] : memref<64x16x7x7xf16>) outs(%[[ACC]] : memref<64x16x7x7xf32>)
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f16, %{{.*}}: f32):
// CHECK-NEXT: %[[WIDE:.*]] = arith.extf %[[IN]] : f16 to f32
// CHECK-NEXT: linalg.yield %[[WIDE]] : f32
// CHECK: memref.dealloc %[[Y]]
// CHECK: return %[[ACC]]
func.func @nchw_zero_fill(%x: memref<64x8x16x16xf16>, %w: memref<16x8x3x3xf16>) -> memref<64x16x7x7xf32> {
  %zero = arith.constant 0.0 : f32
  %acc = memref.alloc() : memref<64x16x7x7xf32>
  linalg.fill ins(%zero : f32) outs(%acc : memref<64x16x7x7xf32>)
  linalg.conv_2d_nchw_fchw {mp.gpu_gemm = "library", dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
    ins(%x, %w : memref<64x8x16x16xf16>, memref<16x8x3x3xf16>) outs(%acc : memref<64x16x7x7xf32>)
  return %acc : memref<64x16x7x7xf32>
}

// -----

// torch-mlir's filter gradient: a grouped bf16 convolution with dilation 2
// into an accumulator that is an argument (a bias, say): cuDNN sees NCHW
// with C = G x C/G = 64 x 1, K = 64 x 16 and 64 groups, and the result is
// added to the accumulator.
// CHECK-LABEL: func.func @grouped_accumulate
// CHECK-DAG: %[[I1:.*]] = arith.constant 1 : i32
// CHECK-DAG: %[[I0:.*]] = arith.constant 0 : i32
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : i64
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : i64
// CHECK-DAG: %[[C7:.*]] = arith.constant 7 : i64
// CHECK-DAG: %[[C8:.*]] = arith.constant 8 : i64
// CHECK-DAG: %[[C64:.*]] = arith.constant 64 : i64
// CHECK-DAG: %[[C16:.*]] = arith.constant 16 : i64
// CHECK-DAG: %[[C1024:.*]] = arith.constant 1024 : i64
// CHECK: %[[Y:.*]] = memref.alloc() : memref<8x64x16x4x4xbf16>
// CHECK: call @mp_cuda_conv(%[[I1]], %[[I0]], %[[I0]], %[[C2]], %[[C64]], %[[C8]], %[[C64]], %[[C1024]], %[[C16]], %[[C16]], %[[C1]], %[[C7]], %[[C7]], %[[C1]], %[[C1]], %[[C1]], %[[C1]], %[[C2]], %[[C2]], %[[C1]],
// CHECK: linalg.generic
// CHECK-SAME: ins(%[[Y]] : memref<8x64x16x4x4xbf16>) outs(%arg2 : memref<8x64x16x4x4xf32>)
// CHECK-NEXT: ^bb0(%[[IN:.*]]: bf16, %[[OUT:.*]]: f32):
// CHECK-NEXT: %[[WIDE:.*]] = arith.extf %[[IN]] : bf16 to f32
// CHECK-NEXT: %[[SUM:.*]] = arith.addf %[[OUT]], %[[WIDE]] : f32
// CHECK-NEXT: linalg.yield %[[SUM]] : f32
// CHECK: memref.dealloc %[[Y]]
func.func @grouped_accumulate(%x: memref<8x64x1x16x16xbf16>, %w: memref<64x16x1x7x7xbf16>, %acc: memref<8x64x16x4x4xf32>) {
  linalg.conv_2d_ngchw_gfchw {mp.gpu_gemm = "library", dilations = dense<2> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
    ins(%x, %w : memref<8x64x1x16x16xbf16>, memref<64x16x1x7x7xbf16>) outs(%acc : memref<8x64x16x4x4xf32>)
  return
}

// -----

// A 1-d convolution is a 2-d one of height 1 (its size, window, stride and
// dilation along the first spatial dimension are 1); an NHWC one says
// channels-last. A strided view of the image is copied into a packed buffer
// first, and that buffer is freed after the call.
// CHECK-LABEL: func.func @one_d
// CHECK-DAG: %[[I0:.*]] = arith.constant 0 : i32
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : i64
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : i64
// CHECK-DAG: %[[C3:.*]] = arith.constant 3 : i64
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : i64
// CHECK-DAG: %[[C5:.*]] = arith.constant 5 : i64
// CHECK-DAG: %[[C29:.*]] = arith.constant 29 : i64
// CHECK: %[[PACKED:.*]] = memref.alloc() : memref<2x3x29xf16>
// CHECK: memref.copy %{{.*}}, %[[PACKED]]
// CHECK: call @mp_cuda_conv(%[[I0]], %[[I0]], %[[I0]], %[[C2]], %[[C1]], %[[C2]], %[[C3]], %[[C4]], %[[C1]], %[[C29]], %[[C1]], %[[C1]], %[[C5]], %[[C1]], %[[C1]], %[[C3]], %[[C1]], %[[C1]], %[[C2]], %[[C1]],
// CHECK-DAG: memref.dealloc %[[PACKED]]
func.func @one_d(%big: memref<2x3x40xf16>, %w: memref<4x3x5xf16>, %acc: memref<2x4x7xf32>) {
  %x = memref.subview %big[0, 0, 0] [2, 3, 29] [1, 1, 1] : memref<2x3x40xf16> to memref<2x3x29xf16, strided<[120, 40, 1]>>
  linalg.conv_1d_ncw_fcw {mp.gpu_gemm = "library", dilations = dense<2> : vector<1xi64>, strides = dense<3> : vector<1xi64>}
    ins(%x, %w : memref<2x3x29xf16, strided<[120, 40, 1]>>, memref<4x3x5xf16>) outs(%acc : memref<2x4x7xf32>)
  return
}

// CHECK-LABEL: func.func @nhwc
// CHECK-DAG: %[[I0:.*]] = arith.constant 0 : i32
// CHECK-DAG: %[[I1:.*]] = arith.constant 1 : i32
// CHECK: call @mp_cuda_conv(%[[I0]], %[[I0]], %[[I1]],
func.func @nhwc(%x: memref<1x5x4x3xf16>, %w: memref<2x2x3x3xf16>, %acc: memref<1x4x2x2xf32>) {
  linalg.conv_2d_nhwc_fhwc {mp.gpu_gemm = "library"}
    ins(%x, %w : memref<1x5x4x3xf16>, memref<2x2x3x3xf16>) outs(%acc : memref<1x4x2x2xf32>)
  return
}

// -----

// torch-mlir's input gradient of a convolution with stride 2 and padding 1:
// a stride-1 convolution of a zero-filled buffer into which the output
// gradient (64x16x7x7) was copied spread out. It becomes cuDNN's backward
// data (kind 1) of that convolution: dx 64x8x14x14 from dy with the filter
// transposed to K x C = 16x8, stride 2, padding 3 - 1 - 1 = 1; x is the
// result, y the copy's source. The spread buffer, its fill and the copy are
// gone.
// CHECK-LABEL: func.func @input_gradient
// CHECK-DAG: %[[I0:.*]] = arith.constant 0 : i32
// CHECK-DAG: %[[I1:.*]] = arith.constant 1 : i32
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : i64
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : i64
// CHECK-DAG: %[[C3:.*]] = arith.constant 3 : i64
// CHECK-DAG: %[[C8:.*]] = arith.constant 8 : i64
// CHECK-DAG: %[[C14:.*]] = arith.constant 14 : i64
// CHECK-DAG: %[[C16:.*]] = arith.constant 16 : i64
// CHECK-DAG: %[[C64:.*]] = arith.constant 64 : i64
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : i64
// CHECK-NOT: memref.subview
// CHECK: %[[DX:.*]] = memref.alloc() : memref<64x8x14x14xf16>
// CHECK: %[[WT:.*]] = memref.alloc() : memref<16x8x3x3xf16>
// CHECK: linalg.transpose ins(%arg1 : memref<8x16x3x3xf16>) outs(%[[WT]] : memref<16x8x3x3xf16>) permutation = [1, 0, 2, 3]
// CHECK: %[[PX:.*]] = memref.extract_aligned_pointer_as_index %[[DX]]
// CHECK: %[[PW:.*]] = memref.extract_aligned_pointer_as_index %[[WT]]
// CHECK: %[[PY:.*]] = memref.extract_aligned_pointer_as_index %arg0
// CHECK: call @mp_cuda_conv(%[[I0]], %[[I1]], %[[I0]], %[[C2]], %[[C1]], %[[C64]], %[[C8]], %[[C16]], %[[C14]], %[[C14]], %[[C1]], %[[C3]], %[[C3]], %[[C1]], %[[C2]], %[[C2]], %[[C1]], %[[C1]], %[[C1]], %[[C1]], %[[C1]], %[[C1]], %[[C0]],
// CHECK: linalg.generic {{.*}} ins(%[[DX]] : memref<64x8x14x14xf16>) outs(%arg2 : memref<64x8x14x14xf32>)
// CHECK-NOT: linalg.fill
// CHECK-NOT: memref.copy
// CHECK: return
func.func @input_gradient(%dy: memref<64x16x7x7xf16>, %w: memref<8x16x3x3xf16>, %acc: memref<64x8x14x14xf32>) {
  %zero = arith.constant 0.0 : f16
  %spread = memref.alloc() : memref<64x16x16x16xf16>
  linalg.fill ins(%zero : f16) outs(%spread : memref<64x16x16x16xf16>)
  %view = memref.subview %spread[0, 0, 1, 1] [64, 16, 7, 7] [1, 1, 2, 2] : memref<64x16x16x16xf16> to memref<64x16x7x7xf16, strided<[4096, 256, 32, 2], offset: 17>>
  memref.copy %dy, %view : memref<64x16x7x7xf16> to memref<64x16x7x7xf16, strided<[4096, 256, 32, 2], offset: 17>>
  linalg.conv_2d_nchw_fchw {mp.gpu_gemm = "library", dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
    ins(%spread, %w : memref<64x16x16x16xf16>, memref<8x16x3x3xf16>) outs(%acc : memref<64x8x14x14xf32>)
  memref.dealloc %spread : memref<64x16x16x16xf16>
  return
}

// The output gradient cast as it is spread (a cast fused into the copy):
// the cast writes into a buffer of its own, which the call reads.
// CHECK-LABEL: func.func @cast_spread
// CHECK: %[[DY:.*]] = memref.alloc() : memref<2x5x5x7xf16>
// CHECK-NEXT: linalg.generic {{.*}} ins(%arg0 : memref<2x5x5x7xf32>) outs(%[[DY]] : memref<2x5x5x7xf16>)
// CHECK: %[[PY:.*]] = memref.extract_aligned_pointer_as_index %[[DY]]
// CHECK: call @mp_cuda_conv(%{{.*}}, %c1_i32, %{{.*}},
// CHECK-NOT: memref.subview
// CHECK: memref.dealloc %[[DY]]
func.func @cast_spread(%dy: memref<2x5x5x7xf32>, %w: memref<3x5x3x3xf16>, %acc: memref<2x3x9x13xf32>) {
  %zero = arith.constant 0.0 : f16
  %spread = memref.alloc() : memref<2x5x11x15xf16>
  linalg.fill ins(%zero : f16) outs(%spread : memref<2x5x11x15xf16>)
  %view = memref.subview %spread[0, 0, 1, 1] [2, 5, 5, 7] [1, 1, 2, 2] : memref<2x5x11x15xf16> to memref<2x5x5x7xf16, strided<[825, 165, 30, 2], offset: 16>>
  linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>, affine_map<(a, b, c, d) -> (a, b, c, d)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%dy : memref<2x5x5x7xf32>) outs(%view : memref<2x5x5x7xf16, strided<[825, 165, 30, 2], offset: 16>>) {
  ^bb0(%in: f32, %out: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  }
  linalg.conv_2d_nchw_fchw {mp.gpu_gemm = "library"}
    ins(%spread, %w : memref<2x5x11x15xf16>, memref<3x5x3x3xf16>) outs(%acc : memref<2x3x9x13xf32>)
  return
}

// Left forward convolutions: a spread with the insertion at offset 0 (the
// padding would be 2 and cuDNN's gradient 6 rows, not 5); a spread also
// read elsewhere; a fill that is not zero; a strided convolution of a
// spread; a spread that is the filter too.
// CHECK-LABEL: func.func @not_backward_data
// CHECK-NOT: linalg.transpose
// CHECK-COUNT-5: call @mp_cuda_conv(%c0_i32, %c0_i32, %c0_i32,
// CHECK-NOT: linalg.transpose
func.func @not_backward_data(%dy: memref<2x5x5x7xf16>, %w: memref<3x5x3x3xf16>, %acc: memref<2x3x9x13xf32>, %out: memref<2x5x5x7xf16>, %acc2: memref<2x3x5x7xf32>, %acc3: memref<2x2x1x1xf32>) {
  %zero = arith.constant 0.0 : f16
  %one = arith.constant 1.0 : f16
  %s0 = memref.alloc() : memref<2x5x11x15xf16>
  linalg.fill ins(%zero : f16) outs(%s0 : memref<2x5x11x15xf16>)
  %v0 = memref.subview %s0[0, 0, 0, 0] [2, 5, 5, 7] [1, 1, 2, 2] : memref<2x5x11x15xf16> to memref<2x5x5x7xf16, strided<[825, 165, 30, 2]>>
  memref.copy %dy, %v0 : memref<2x5x5x7xf16> to memref<2x5x5x7xf16, strided<[825, 165, 30, 2]>>
  linalg.conv_2d_nchw_fchw {mp.gpu_gemm = "library"} ins(%s0, %w : memref<2x5x11x15xf16>, memref<3x5x3x3xf16>) outs(%acc : memref<2x3x9x13xf32>)
  %s1 = memref.alloc() : memref<2x5x11x15xf16>
  linalg.fill ins(%zero : f16) outs(%s1 : memref<2x5x11x15xf16>)
  %v1 = memref.subview %s1[0, 0, 1, 1] [2, 5, 5, 7] [1, 1, 2, 2] : memref<2x5x11x15xf16> to memref<2x5x5x7xf16, strided<[825, 165, 30, 2], offset: 16>>
  memref.copy %dy, %v1 : memref<2x5x5x7xf16> to memref<2x5x5x7xf16, strided<[825, 165, 30, 2], offset: 16>>
  memref.copy %v1, %out : memref<2x5x5x7xf16, strided<[825, 165, 30, 2], offset: 16>> to memref<2x5x5x7xf16>
  linalg.conv_2d_nchw_fchw {mp.gpu_gemm = "library"} ins(%s1, %w : memref<2x5x11x15xf16>, memref<3x5x3x3xf16>) outs(%acc : memref<2x3x9x13xf32>)
  %s2 = memref.alloc() : memref<2x5x11x15xf16>
  linalg.fill ins(%one : f16) outs(%s2 : memref<2x5x11x15xf16>)
  %v2 = memref.subview %s2[0, 0, 1, 1] [2, 5, 5, 7] [1, 1, 2, 2] : memref<2x5x11x15xf16> to memref<2x5x5x7xf16, strided<[825, 165, 30, 2], offset: 16>>
  memref.copy %dy, %v2 : memref<2x5x5x7xf16> to memref<2x5x5x7xf16, strided<[825, 165, 30, 2], offset: 16>>
  linalg.conv_2d_nchw_fchw {mp.gpu_gemm = "library"} ins(%s2, %w : memref<2x5x11x15xf16>, memref<3x5x3x3xf16>) outs(%acc : memref<2x3x9x13xf32>)
  %s3 = memref.alloc() : memref<2x5x11x15xf16>
  linalg.fill ins(%zero : f16) outs(%s3 : memref<2x5x11x15xf16>)
  %v3 = memref.subview %s3[0, 0, 1, 1] [2, 5, 5, 7] [1, 1, 2, 2] : memref<2x5x11x15xf16> to memref<2x5x5x7xf16, strided<[825, 165, 30, 2], offset: 16>>
  memref.copy %dy, %v3 : memref<2x5x5x7xf16> to memref<2x5x5x7xf16, strided<[825, 165, 30, 2], offset: 16>>
  linalg.conv_2d_nchw_fchw {mp.gpu_gemm = "library", strides = dense<2> : vector<2xi64>} ins(%s3, %w : memref<2x5x11x15xf16>, memref<3x5x3x3xf16>) outs(%acc2 : memref<2x3x5x7xf32>)
  %s4 = memref.alloc() : memref<2x5x11x15xf16>
  linalg.fill ins(%zero : f16) outs(%s4 : memref<2x5x11x15xf16>)
  %v4 = memref.subview %s4[0, 0, 1, 1] [2, 5, 5, 7] [1, 1, 2, 2] : memref<2x5x11x15xf16> to memref<2x5x5x7xf16, strided<[825, 165, 30, 2], offset: 16>>
  memref.copy %dy, %v4 : memref<2x5x5x7xf16> to memref<2x5x5x7xf16, strided<[825, 165, 30, 2], offset: 16>>
  linalg.conv_2d_nchw_fchw {mp.gpu_gemm = "library"} ins(%s4, %s4 : memref<2x5x11x15xf16>, memref<2x5x11x15xf16>) outs(%acc3 : memref<2x2x1x1xf32>)
  return
}

// -----

// A zero-padded image, as a tensor.pad bufferizes (a map that yields the
// padding value, a subview, a copy): cuDNN reads the tensor (arg0,
// 2x3x9x9) with padding 1x1, and the padded buffer goes. Stride 2: its 5
// output rows are cuDNN's too.
// CHECK-LABEL: func.func @padded
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : i64
// CHECK-DAG: %[[C9:.*]] = arith.constant 9 : i64
// CHECK-NOT: linalg.map
// CHECK-NOT: memref.subview
// CHECK: %[[PX:.*]] = memref.extract_aligned_pointer_as_index %arg0
// CHECK: call @mp_cuda_conv(%c0_i32, %c0_i32, %c0_i32, %c2_i64, %[[C1]], %c2_i64, %c3_i64, %c4_i64, %[[C9]], %[[C9]], %[[C1]], %c3_i64, %c3_i64, %[[C1]], %c2_i64, %c2_i64, %[[C1]], %[[C1]], %[[C1]], %[[C1]], %[[C1]], %[[C1]], %c0_i64,
// CHECK-NOT: memref.copy
// CHECK: return
func.func @padded(%x: memref<2x3x9x9xf16>, %w: memref<4x3x3x3xf16>, %acc: memref<2x4x5x5xf32>) {
  %zero = arith.constant 0.0 : f16
  %p = memref.alloc() : memref<2x3x11x11xf16>
  linalg.map outs(%p : memref<2x3x11x11xf16>)
    (%init: f16) {
      linalg.yield %zero : f16
    }
  %view = memref.subview %p[0, 0, 1, 1] [2, 3, 9, 9] [1, 1, 1, 1] : memref<2x3x11x11xf16> to memref<2x3x9x9xf16, strided<[363, 121, 11, 1], offset: 12>>
  memref.copy %x, %view : memref<2x3x9x9xf16> to memref<2x3x9x9xf16, strided<[363, 121, 11, 1], offset: 12>>
  linalg.conv_2d_nchw_fchw {mp.gpu_gemm = "library", strides = dense<2> : vector<2xi64>}
    ins(%p, %w : memref<2x3x11x11xf16>, memref<4x3x3x3xf16>) outs(%acc : memref<2x4x5x5xf32>)
  memref.dealloc %p : memref<2x3x11x11xf16>
  return
}

// Left padded: a padding value that is not zero; padding only after the
// tensor (cuDNN pads both sides: 10 output rows, not 9); padding along the
// channels.
// CHECK-LABEL: func.func @not_folded
// CHECK-COUNT-3: call @mp_cuda_conv({{.*}}, %c0_i64, %c0_i64, %c0_i64,
func.func @not_folded(%x: memref<2x3x9x9xf16>, %w: memref<4x3x3x3xf16>, %w4: memref<4x4x3x3xf16>, %acc: memref<2x4x5x5xf32>, %acc9: memref<2x4x8x8xf32>) {
  %one = arith.constant 1.0 : f16
  %zero = arith.constant 0.0 : f16
  %p0 = memref.alloc() : memref<2x3x11x11xf16>
  linalg.fill ins(%one : f16) outs(%p0 : memref<2x3x11x11xf16>)
  %v0 = memref.subview %p0[0, 0, 1, 1] [2, 3, 9, 9] [1, 1, 1, 1] : memref<2x3x11x11xf16> to memref<2x3x9x9xf16, strided<[363, 121, 11, 1], offset: 12>>
  memref.copy %x, %v0 : memref<2x3x9x9xf16> to memref<2x3x9x9xf16, strided<[363, 121, 11, 1], offset: 12>>
  linalg.conv_2d_nchw_fchw {mp.gpu_gemm = "library", strides = dense<2> : vector<2xi64>}
    ins(%p0, %w : memref<2x3x11x11xf16>, memref<4x3x3x3xf16>) outs(%acc : memref<2x4x5x5xf32>)
  %p1 = memref.alloc() : memref<2x3x10x10xf16>
  linalg.fill ins(%zero : f16) outs(%p1 : memref<2x3x10x10xf16>)
  %v1 = memref.subview %p1[0, 0, 0, 0] [2, 3, 9, 9] [1, 1, 1, 1] : memref<2x3x10x10xf16> to memref<2x3x9x9xf16, strided<[300, 100, 10, 1]>>
  memref.copy %x, %v1 : memref<2x3x9x9xf16> to memref<2x3x9x9xf16, strided<[300, 100, 10, 1]>>
  linalg.conv_2d_nchw_fchw {mp.gpu_gemm = "library"}
    ins(%p1, %w : memref<2x3x10x10xf16>, memref<4x3x3x3xf16>) outs(%acc9 : memref<2x4x8x8xf32>)
  %p2 = memref.alloc() : memref<2x4x11x11xf16>
  linalg.fill ins(%zero : f16) outs(%p2 : memref<2x4x11x11xf16>)
  %v2 = memref.subview %p2[0, 1, 1, 1] [2, 3, 9, 9] [1, 1, 1, 1] : memref<2x4x11x11xf16> to memref<2x3x9x9xf16, strided<[484, 121, 11, 1], offset: 133>>
  memref.copy %x, %v2 : memref<2x3x9x9xf16> to memref<2x3x9x9xf16, strided<[484, 121, 11, 1], offset: 133>>
  linalg.conv_2d_nchw_fchw {mp.gpu_gemm = "library", strides = dense<2> : vector<2xi64>}
    ins(%p2, %w4 : memref<2x4x11x11xf16>, memref<4x4x3x3xf16>) outs(%acc : memref<2x4x5x5xf32>)
  return
}

// -----

// Unmarked convolutions (generated kernels) are left alone, and nothing is
// declared.
// CHECK-LABEL: func.func @unmarked
// CHECK-NOT: mp_cuda_conv
// CHECK: linalg.conv_2d_nchw_fchw
func.func @unmarked(%x: memref<1x8x16x16xf16>, %w: memref<16x8x3x3xf16>, %acc: memref<1x16x14x14xf32>) {
  linalg.conv_2d_nchw_fchw ins(%x, %w : memref<1x8x16x16xf16>, memref<16x8x3x3xf16>) outs(%acc : memref<1x16x14x14xf32>)
  return
}

// With emulate (mp-lower-to-gpu-emulation) the calls are of the runtime's
// CPU implementation, with the same arguments.
// EMULATE: func.func private @mp_emulated_conv(
// EMULATE: call @mp_emulated_conv(

// -----

// A filter gradient (mp-gpu-select-gemm's form of torch-mlir's): cuDNN's
// backward filter (kind 2) reads the image unpadded (arg0, 2x3x6x6, padding
// 1) and the output gradient (arg1, 2x4x3x3; stride 2, dilation 1) and
// writes the 4x3x3x3 gradient in f16, which is widened into the
// accumulator (its zero fill dropped).
// CHECK-LABEL: func.func @filter_gradient
// CHECK-DAG: %[[KIND:.*]] = arith.constant 2 : i32
// CHECK-NOT: memref.subview
// CHECK: %[[DW:.*]] = memref.alloc() : memref<4x3x3x3xf16>
// CHECK: %[[PX:.*]] = memref.extract_aligned_pointer_as_index %arg0
// CHECK: %[[PW:.*]] = memref.extract_aligned_pointer_as_index %[[DW]]
// CHECK: %[[PY:.*]] = memref.extract_aligned_pointer_as_index %arg1
// CHECK: call @mp_cuda_conv(%c0_i32, %[[KIND]], %c0_i32, %c2_i64, %c1_i64, %c2_i64, %c3_i64, %c4_i64, %c6_i64, %c6_i64, %c1_i64, %c3_i64, %c3_i64, %c1_i64, %c2_i64, %c2_i64, %c1_i64, %c1_i64, %c1_i64, %c1_i64, %c1_i64, %c1_i64, %c0_i64,
// CHECK: linalg.generic {{.*}} ins(%[[DW]] : memref<4x3x3x3xf16>) outs(%arg2 : memref<4x3x3x3xf32>)
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f16, %{{.*}}: f32):
// CHECK-NEXT: %[[E:.*]] = arith.extf %[[IN]] : f16 to f32
// CHECK-NEXT: linalg.yield %[[E]] : f32
// CHECK-NOT: linalg.fill
// CHECK: return
func.func @filter_gradient(%x: memref<2x3x6x6xf16>, %dy: memref<2x4x3x3xf16>, %acc: memref<4x3x3x3xf32>) {
  %zero = arith.constant 0.0 : f16
  %fzero = arith.constant 0.0 : f32
  %p = memref.alloc() : memref<2x3x8x8xf16>
  linalg.fill ins(%zero : f16) outs(%p : memref<2x3x8x8xf16>)
  %view = memref.subview %p[0, 0, 1, 1] [2, 3, 6, 6] [1, 1, 1, 1] : memref<2x3x8x8xf16> to memref<2x3x6x6xf16, strided<[192, 64, 8, 1], offset: 9>>
  memref.copy %x, %view : memref<2x3x6x6xf16> to memref<2x3x6x6xf16, strided<[192, 64, 8, 1], offset: 9>>
  linalg.fill ins(%fzero : f32) outs(%acc : memref<4x3x3x3xf32>)
  linalg.generic {indexing_maps = [affine_map<(k, c, r, s, n, h, w) -> (n, c, r + h * 2, s + w * 2)>,
                                   affine_map<(k, c, r, s, n, h, w) -> (n, k, h, w)>,
                                   affine_map<(k, c, r, s, n, h, w) -> (k, c, r, s)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%p, %dy : memref<2x3x8x8xf16>, memref<2x4x3x3xf16>) outs(%acc : memref<4x3x3x3xf32>) attrs = {mp.gpu_gemm = "library"} {
  ^bb0(%a: f16, %b: f16, %o: f32):
    %ae = arith.extf %a : f16 to f32
    %be = arith.extf %b : f16 to f32
    %m = arith.mulf %ae, %be : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  }
  memref.dealloc %p : memref<2x3x8x8xf16>
  return
}

// -----

// The output gradient written into the spread of an input gradient and
// read there by a filter gradient too (bufferization's choice in the CNN's
// step): it is written into a buffer of its own, which both calls read;
// that buffer is freed where the spread was, after both.
// CHECK-LABEL: func.func @spread_also_read
// CHECK: %[[DY:.*]] = memref.alloc() : memref<2x5x5x7xf16>
// CHECK-NEXT: linalg.generic {{.*}} ins(%arg0 : memref<2x5x5x7xf32>) outs(%[[DY]] : memref<2x5x5x7xf16>)
// CHECK: %[[PDATA:.*]] = memref.extract_aligned_pointer_as_index %[[DY]]
// CHECK: call @mp_cuda_conv(%c0_i32, %c1_i32, %c0_i32,
// CHECK: %[[PFILTER:.*]] = memref.extract_aligned_pointer_as_index %[[DY]]
// CHECK: call @mp_cuda_conv(%c0_i32, %c2_i32, %c0_i32,
// CHECK-NOT: memref.subview
// CHECK: memref.dealloc %[[DY]] :
// CHECK-NOT: memref.dealloc %[[DY]] :
// CHECK: return
func.func @spread_also_read(%dy: memref<2x5x5x7xf32>, %w: memref<3x5x3x3xf16>, %acc: memref<2x3x9x13xf32>, %x: memref<2x3x9x13xf16>, %dw: memref<5x3x3x3xf32>) {
  %zero = arith.constant 0.0 : f16
  %spread = memref.alloc() : memref<2x5x11x15xf16>
  linalg.fill ins(%zero : f16) outs(%spread : memref<2x5x11x15xf16>)
  %view = memref.subview %spread[0, 0, 1, 1] [2, 5, 5, 7] [1, 1, 2, 2] : memref<2x5x11x15xf16> to memref<2x5x5x7xf16, strided<[825, 165, 30, 2], offset: 16>>
  linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>, affine_map<(a, b, c, d) -> (a, b, c, d)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%dy : memref<2x5x5x7xf32>) outs(%view : memref<2x5x5x7xf16, strided<[825, 165, 30, 2], offset: 16>>) {
  ^bb0(%in: f32, %out: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  }
  linalg.conv_2d_nchw_fchw {mp.gpu_gemm = "library"}
    ins(%spread, %w : memref<2x5x11x15xf16>, memref<3x5x3x3xf16>) outs(%acc : memref<2x3x9x13xf32>)
  // The filter gradient of the forward 3x3 convolution of stride 2 and
  // padding 1 whose output gradient was spread: (9 + 2 - 3) / 2 + 1 = 5
  // rows, (13 + 2 - 3) / 2 + 1 = 7 columns.
  %p = memref.alloc() : memref<2x3x11x15xf16>
  linalg.fill ins(%zero : f16) outs(%p : memref<2x3x11x15xf16>)
  %pv = memref.subview %p[0, 0, 1, 1] [2, 3, 9, 13] [1, 1, 1, 1] : memref<2x3x11x15xf16> to memref<2x3x9x13xf16, strided<[495, 165, 15, 1], offset: 16>>
  memref.copy %x, %pv : memref<2x3x9x13xf16> to memref<2x3x9x13xf16, strided<[495, 165, 15, 1], offset: 16>>
  linalg.generic {indexing_maps = [affine_map<(k, c, r, s, n, h, w) -> (n, c, r + h * 2, s + w * 2)>,
                                   affine_map<(k, c, r, s, n, h, w) -> (n, k, h, w)>,
                                   affine_map<(k, c, r, s, n, h, w) -> (k, c, r, s)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%p, %view : memref<2x3x11x15xf16>, memref<2x5x5x7xf16, strided<[825, 165, 30, 2], offset: 16>>) outs(%dw : memref<5x3x3x3xf32>) attrs = {mp.gpu_gemm = "library"} {
  ^bb0(%a: f16, %b: f16, %o: f32):
    %ae = arith.extf %a : f16 to f32
    %be = arith.extf %b : f16 to f32
    %m = arith.mulf %ae, %be : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  }
  memref.dealloc %p : memref<2x3x11x15xf16>
  memref.dealloc %spread : memref<2x5x11x15xf16>
  return
}
