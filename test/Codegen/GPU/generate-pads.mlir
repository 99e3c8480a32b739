// RUN: mp-opt %s --split-input-file --mp-gpu-generate-pads --cse | FileCheck %s --implicit-check-not=tensor.pad

// High padding: the element is the source's below
// 37 rows and 29 columns, the padding value elsewhere.
// CHECK-LABEL: func.func @high
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f16
// CHECK: tensor.generate
// CHECK-NEXT: ^bb0(%[[I:.*]]: index, %[[J:.*]]: index):
// CHECK-DAG: %[[C37:.*]] = arith.constant 37 : index
// CHECK-DAG: %[[C29:.*]] = arith.constant 29 : index
// CHECK-DAG: %[[IN_I:.*]] = arith.cmpi ult, %[[I]], %[[C37]] : index
// CHECK-DAG: %[[IN_J:.*]] = arith.cmpi ult, %[[J]], %[[C29]] : index
// CHECK: %[[IN:.*]] = arith.andi %[[IN_I]], %[[IN_J]] : i1
// CHECK: %[[V:.*]] = scf.if %[[IN]] -> (f16) {
// CHECK-NEXT: %[[E:.*]] = tensor.extract %arg0[%[[I]], %[[J]]] : tensor<37x29xf16>
// CHECK-NEXT: scf.yield %[[E]] : f16
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %[[ZERO]] : f16
// CHECK: tensor.yield %[[V]] : f16
// CHECK-NEXT: } : tensor<64x32xf16>
func.func @high(%a: tensor<37x29xf16>) -> tensor<64x32xf16> {
  %zero = arith.constant 0.0 : f16
  %p = tensor.pad %a low[0, 0] high[27, 3] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f16
  } : tensor<37x29xf16> to tensor<64x32xf16>
  return %p : tensor<64x32xf16>
}

// -----

// A convolution's padding, low and high on the spatial dimensions only:
// those are checked, the index shifted by the low padding (an index below
// it wraps around and fails the unsigned compare).
// CHECK-LABEL: func.func @spatial
// CHECK: ^bb0(%[[N:.*]]: index, %[[C:.*]]: index, %[[H:.*]]: index, %[[W:.*]]: index):
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[FIVE:.*]] = arith.constant 5 : index
// CHECK-DAG: %[[SH:.*]] = arith.subi %[[H]], %[[ONE]] : index
// CHECK-DAG: %[[SW:.*]] = arith.subi %[[W]], %[[ONE]] : index
// CHECK-DAG: arith.cmpi ult, %[[SH]], %[[FIVE]] : index
// CHECK-DAG: arith.cmpi ult, %[[SW]], %[[FIVE]] : index
// CHECK: tensor.extract %arg0[%[[N]], %[[C]], %[[SH]], %[[SW]]] : tensor<2x3x5x5xf32>
// CHECK-NOT: arith.cmpi
// CHECK: } : tensor<2x3x7x7xf32>
func.func @spatial(%x: tensor<2x3x5x5xf32>) -> tensor<2x3x7x7xf32> {
  %z = arith.constant 0.0 : f32
  %q = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %z : f32
  } : tensor<2x3x5x5xf32> to tensor<2x3x7x7xf32>
  return %q : tensor<2x3x7x7xf32>
}

// -----

// An elementwise producer used only by the pad (a cast of a transposed
// operand) is computed inside: its input read where the pad reads,
// through its map, and no kernel of its own.
// CHECK-LABEL: func.func @producer
// CHECK-NOT: linalg.generic
// CHECK: ^bb0(%[[I:.*]]: index, %[[J:.*]]: index):
// CHECK: scf.if
// CHECK-NEXT: %[[E:.*]] = tensor.extract %arg0[%[[J]], %[[I]]] : tensor<29x37xf32>
// CHECK-NEXT: %[[T:.*]] = arith.truncf %[[E]] : f32 to f16
// CHECK-NEXT: scf.yield %[[T]] : f16
// CHECK-NOT: linalg.generic
func.func @producer(%a: tensor<29x37xf32>) -> tensor<64x32xf16> {
  %e = tensor.empty() : tensor<37x29xf16>
  %h = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (j, i)>, affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<29x37xf32>) outs(%e : tensor<37x29xf16>) {
  ^bb0(%x: f32, %o: f16):
    %t = arith.truncf %x : f32 to f16
    linalg.yield %t : f16
  } -> tensor<37x29xf16>
  %zero = arith.constant 0.0 : f16
  %p = tensor.pad %h low[0, 0] high[27, 3] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f16
  } : tensor<37x29xf16> to tensor<64x32xf16>
  return %p : tensor<64x32xf16>
}

// -----

// Dynamic shapes and non-constant padding values stay tensor.pad.
// CHECK-LABEL: func.func @kept
// CHECK-COUNT-2: tensor.pad
func.func @kept(%a: tensor<?x4xf32>, %b: tensor<4x4xf32>, %v: f32) -> (tensor<?x8xf32>, tensor<8x8xf32>) {
  %z = arith.constant 0.0 : f32
  %p = tensor.pad %a low[0, 0] high[0, 4] {
  ^bb0(%i: index, %j: index):
    tensor.yield %z : f32
  } : tensor<?x4xf32> to tensor<?x8xf32>
  %q = tensor.pad %b low[0, 0] high[4, 4] {
  ^bb0(%i: index, %j: index):
    %w = arith.mulf %v, %v : f32
    tensor.yield %w : f32
  } : tensor<4x4xf32> to tensor<8x8xf32>
  return %p, %q : tensor<?x8xf32>, tensor<8x8xf32>
}

// -----

// A pad read only as the image of a convolution given to cuDNN stays a pad:
// mp-gpu-library-conv gives its padding to cuDNN. One also read by
// something else is generated.
// CHECK-LABEL: func.func @cudnn_image
// CHECK: %[[PAD:.*]] = tensor.pad %arg0 low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK: linalg.conv_2d_nchw_fchw {mp.gpu_gemm = "library"} ins(%[[PAD]], %arg1
// CHECK: %[[GEN:.*]] = tensor.generate
// CHECK: linalg.conv_2d_nchw_fchw {mp.gpu_gemm = "library"} ins(%[[GEN]], %arg1
// CHECK: return {{.*}}, %[[GEN]]
func.func @cudnn_image(%x: tensor<2x3x9x9xf16>, %w: tensor<4x3x3x3xf16>, %acc: tensor<2x4x9x9xf32>) -> (tensor<2x4x9x9xf32>, tensor<2x4x9x9xf32>, tensor<2x3x11x11xf16>) {
  %zero = arith.constant 0.0 : f16
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zero : f16
  } : tensor<2x3x9x9xf16> to tensor<2x3x11x11xf16>
  %c0 = linalg.conv_2d_nchw_fchw {mp.gpu_gemm = "library"} ins(%p, %w : tensor<2x3x11x11xf16>, tensor<4x3x3x3xf16>) outs(%acc : tensor<2x4x9x9xf32>) -> tensor<2x4x9x9xf32>
  %q = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zero : f16
  } : tensor<2x3x9x9xf16> to tensor<2x3x11x11xf16>
  %c1 = linalg.conv_2d_nchw_fchw {mp.gpu_gemm = "library"} ins(%q, %w : tensor<2x3x11x11xf16>, tensor<4x3x3x3xf16>) outs(%acc : tensor<2x4x9x9xf32>) -> tensor<2x4x9x9xf32>
  return %c0, %c1, %q : tensor<2x4x9x9xf32>, tensor<2x4x9x9xf32>, tensor<2x3x11x11xf16>
}
