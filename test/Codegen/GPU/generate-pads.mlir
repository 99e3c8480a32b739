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

// A cast that one pad reads and a transpose before another pad reads (a
// step's images: one convolution pads them, the filter gradient transposes
// and pads them): each generate computes the chain from the input, and
// neither the cast nor the transpose is left.
// CHECK-LABEL: func.func @producer_chain
// CHECK-NOT: linalg.generic
// CHECK: tensor.generate
// CHECK: %[[E:.*]] = tensor.extract %arg0[%{{.*}}, %{{.*}}] : tensor<4x6xf32>
// CHECK-NEXT: arith.truncf %[[E]] : f32 to f16
// CHECK: tensor.generate
// CHECK: %[[F:.*]] = tensor.extract %arg0[%{{.*}}, %{{.*}}] : tensor<4x6xf32>
// CHECK-NEXT: arith.truncf %[[F]] : f32 to f16
// CHECK-NOT: linalg.generic
func.func @producer_chain(%a: tensor<4x6xf32>) -> (tensor<6x8xf16>, tensor<8x6xf16>) {
  %e = tensor.empty() : tensor<4x6xf16>
  %h = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<4x6xf32>) outs(%e : tensor<4x6xf16>) {
  ^bb0(%x: f32, %o: f16):
    %t = arith.truncf %x : f32 to f16
    linalg.yield %t : f16
  } -> tensor<4x6xf16>
  %et = tensor.empty() : tensor<6x4xf16>
  %tr = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (j, i)>, affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%h : tensor<4x6xf16>) outs(%et : tensor<6x4xf16>) {
  ^bb0(%x: f16, %o: f16):
    linalg.yield %x : f16
  } -> tensor<6x4xf16>
  %zero = arith.constant 0.0 : f16
  %p = tensor.pad %h low[1, 1] high[1, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f16
  } : tensor<4x6xf16> to tensor<6x8xf16>
  %q = tensor.pad %tr low[1, 1] high[1, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f16
  } : tensor<6x4xf16> to tensor<8x6xf16>
  return %p, %q : tensor<6x8xf16>, tensor<8x6xf16>
}

// -----

// A cast that something else reads too (here the return) is computed once
// and read by the pad.
// CHECK-LABEL: func.func @producer_kept
// CHECK: %[[H:.*]] = linalg.generic
// CHECK: tensor.generate
// CHECK: tensor.extract %[[H]]
// CHECK-NOT: arith.truncf
// CHECK: return
func.func @producer_kept(%a: tensor<4x6xf32>) -> (tensor<6x8xf16>, tensor<4x6xf16>) {
  %e = tensor.empty() : tensor<4x6xf16>
  %h = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<4x6xf32>) outs(%e : tensor<4x6xf16>) {
  ^bb0(%x: f32, %o: f16):
    %t = arith.truncf %x : f32 to f16
    linalg.yield %t : f16
  } -> tensor<4x6xf16>
  %zero = arith.constant 0.0 : f16
  %p = tensor.pad %h low[1, 1] high[1, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f16
  } : tensor<4x6xf16> to tensor<6x8xf16>
  return %p, %h : tensor<6x8xf16>, tensor<4x6xf16>
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

// -----

// The gradient of a stride-2 convolution's output dilated into the zeros of
// its padded image (torch-mlir's backward): a slice inserted with strides
// into a fill used by nothing else. One generate: along H and W, i - 1 below
// (7 - 1) * 2 + 1 = 13 (unsigned) and even, the source index (i - 1) / 2;
// the fill goes.
// CHECK-LABEL: func.func @dilated
// CHECK-NOT: linalg.fill
// CHECK: ^bb0(%[[N:.*]]: index, %[[C:.*]]: index, %[[H:.*]]: index, %[[W:.*]]: index):
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[TWO:.*]] = arith.constant 2 : index
// CHECK-DAG: %[[EXTENT:.*]] = arith.constant 13 : index
// CHECK-DAG: %[[SH:.*]] = arith.subi %[[H]], %[[ONE]] : index
// CHECK-DAG: arith.cmpi ult, %[[SH]], %[[EXTENT]] : index
// CHECK-DAG: %[[RH:.*]] = arith.remui %[[SH]], %[[TWO]] : index
// CHECK-DAG: arith.cmpi eq, %[[RH]], %{{.*}} : index
// CHECK-DAG: %[[DH:.*]] = arith.divui %[[SH]], %[[TWO]] : index
// CHECK-DAG: %[[SW:.*]] = arith.subi %[[W]], %[[ONE]] : index
// CHECK-DAG: %[[DW:.*]] = arith.divui %[[SW]], %[[TWO]] : index
// CHECK: scf.if
// CHECK: tensor.extract %arg0[%[[N]], %[[C]], %[[DH]], %[[DW]]] : tensor<2x3x7x7xf16>
// CHECK: } else {
// CHECK: scf.yield %{{.*}} : f16
// CHECK: } : tensor<2x3x16x16xf16>
// CHECK-NOT: tensor.insert_slice
func.func @dilated(%g: tensor<2x3x7x7xf16>) -> tensor<2x3x16x16xf16> {
  %z = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<2x3x16x16xf16>
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<2x3x16x16xf16>) -> tensor<2x3x16x16xf16>
  %d = tensor.insert_slice %g into %f[0, 0, 1, 1] [2, 3, 7, 7] [1, 1, 2, 2] : tensor<2x3x7x7xf16> into tensor<2x3x16x16xf16>
  return %d : tensor<2x3x16x16xf16>
}

// -----

// Left alone: a fill that something else reads too, a slice inserted into a
// tensor that no fill made, a slice that drops a dimension.
// CHECK-LABEL: func.func @inserts_kept
// CHECK-COUNT-3: tensor.insert_slice
// CHECK-NOT: tensor.generate
func.func @inserts_kept(%g: tensor<4x4xf32>, %h: tensor<8x8xf32>, %r: tensor<4xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>) {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x8xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %a = tensor.insert_slice %g into %f[2, 2] [4, 4] [1, 1] : tensor<4x4xf32> into tensor<8x8xf32>
  %b = tensor.insert_slice %g into %h[0, 0] [4, 4] [2, 2] : tensor<4x4xf32> into tensor<8x8xf32>
  %f2 = linalg.fill ins(%z : f32) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %c = tensor.insert_slice %r into %f2[3, 0] [1, 4] [1, 1] : tensor<4xf32> into tensor<8x8xf32>
  return %a, %b, %c, %f : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>
}

// -----

// A gradient spread into zeros and read only as the image of a convolution
// given to cuDNN stays an insertion: mp-gpu-library-conv makes it cuDNN's
// backward data.
// CHECK-LABEL: func.func @cudnn_spread
// CHECK: linalg.fill
// CHECK: %[[SPREAD:.*]] = tensor.insert_slice %arg0 into
// CHECK: linalg.conv_2d_nchw_fchw {mp.gpu_gemm = "library"} ins(%[[SPREAD]], %arg1
// CHECK-NOT: tensor.generate
func.func @cudnn_spread(%g: tensor<2x4x7x7xf16>, %w: tensor<3x4x3x3xf16>, %acc: tensor<2x3x14x14xf32>) -> tensor<2x3x14x14xf32> {
  %z = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<2x4x16x16xf16>
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<2x4x16x16xf16>) -> tensor<2x4x16x16xf16>
  %s = tensor.insert_slice %g into %f[0, 0, 1, 1] [2, 4, 7, 7] [1, 1, 2, 2] : tensor<2x4x7x7xf16> into tensor<2x4x16x16xf16>
  %c = linalg.conv_2d_nchw_fchw {mp.gpu_gemm = "library"} ins(%s, %w : tensor<2x4x16x16xf16>, tensor<3x4x3x3xf16>) outs(%acc : tensor<2x3x14x14xf32>) -> tensor<2x3x14x14xf32>
  return %c : tensor<2x3x14x14xf32>
}
