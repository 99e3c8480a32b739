// RUN: mp-opt %s --split-input-file --mp-vectorize-gathers | FileCheck %s

// The im2col gather of a stride-2 convolution: each output row of 14 is one
// read of 27 contiguous elements, every other one kept.
// CHECK-LABEL: func.func @strided_im2col
// CHECK-SAME: (%[[X:.*]]: tensor<64x30x30xf32>
// CHECK: scf.for %[[KH:.*]] = %c0 to %c3
// CHECK: scf.for %[[N:.*]] = %c0 to %c64
// CHECK: scf.for %[[OH:.*]] = %c0 to %c14 step %c1 iter_args(%[[ACC:.*]] =
// CHECK: %[[H:.*]] = affine.apply #{{.*}}(%[[KH]], %[[OH]])
// CHECK: %[[ROW:.*]] = vector.transfer_read %[[X]][%[[N]], %[[H]], %c0{{.*}}], %{{.*}} {in_bounds = [true]} : tensor<64x30x30xf32>, vector<27xf32>
// CHECK: %[[EVERY2:.*]] = vector.shuffle %[[ROW]], %[[ROW]] [0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26] : vector<27xf32>, vector<27xf32>
// CHECK: vector.transfer_write %[[EVERY2]], %[[ACC]][%[[KH]], %[[N]], %[[OH]], %c0] {in_bounds = [true]} : vector<14xf32>, tensor<3x64x14x14xf32>
// CHECK-NOT: linalg.generic
func.func @strided_im2col(%x: tensor<64x30x30xf32>) -> tensor<3x64x14x14xf32> {
  %e = tensor.empty() : tensor<3x64x14x14xf32>
  %g = linalg.generic {
      indexing_maps = [affine_map<(kh, n, oh, ow) -> (n, oh * 2 + kh, ow * 2)>,
                       affine_map<(kh, n, oh, ow) -> (kh, n, oh, ow)>],
      iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<64x30x30xf32>) outs(%e : tensor<3x64x14x14xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<3x64x14x14xf32>
  return %g : tensor<3x64x14x14xf32>
}

// -----

// A window of 4 columns (a weight gradient's patches, bf16): one read of 4,
// no shuffle.
// CHECK-LABEL: func.func @window
// CHECK: %[[ROW:.*]] = vector.transfer_read %{{.*}} {in_bounds = [true]} : tensor<8x16x16xbf16>, vector<4xbf16>
// CHECK-NOT: vector.shuffle
// CHECK: vector.transfer_write %[[ROW]], %{{.*}} {in_bounds = [true]} : vector<4xbf16>, tensor<8x7x7x4x4xbf16>
func.func @window(%x: tensor<8x16x16xbf16>) -> tensor<8x7x7x4x4xbf16> {
  %e = tensor.empty() : tensor<8x7x7x4x4xbf16>
  %g = linalg.generic {
      indexing_maps = [affine_map<(n, oh, ow, kh, kw) -> (n, oh * 2 + kh, ow * 2 + kw)>,
                       affine_map<(n, oh, ow, kh, kw) -> (n, oh, ow, kh, kw)>],
      iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<8x16x16xbf16>) outs(%e : tensor<8x7x7x4x4xbf16>) {
  ^bb0(%in: bf16, %out: bf16):
    linalg.yield %in : bf16
  } -> tensor<8x7x7x4x4xbf16>
  return %g : tensor<8x7x7x4x4xbf16>
}

// -----

// A transpose that keeps the innermost dimension: rows of 16.
// CHECK-LABEL: func.func @outer_transpose
// CHECK: scf.for %[[A:.*]] = %c0 to %c8
// CHECK: scf.for %[[B:.*]] = %c0 to %c4
// CHECK: vector.transfer_read %{{.*}}[%[[B]], %[[A]], %c0{{.*}}], %{{.*}} {in_bounds = [true]} : tensor<4x8x16xf32>, vector<16xf32>
// CHECK: vector.transfer_write %{{.*}}[%[[A]], %[[B]], %c0] {in_bounds = [true]} : vector<16xf32>, tensor<8x4x16xf32>
func.func @outer_transpose(%x: tensor<4x8x16xf32>) -> tensor<8x4x16xf32> {
  %e = tensor.empty() : tensor<8x4x16xf32>
  %g = linalg.generic {
      indexing_maps = [affine_map<(a, b, c) -> (b, a, c)>,
                       affine_map<(a, b, c) -> (a, b, c)>],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : tensor<4x8x16xf32>) outs(%e : tensor<8x4x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<8x4x16xf32>
  return %g : tensor<8x4x16xf32>
}

// -----

// Left alone: a transpose of the innermost dimension, a row of 3, a stride
// of 5, a body that reads the loop indices, a plain copy, and a reduction.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: vector.
// CHECK-COUNT-6: linalg.generic
// CHECK-NOT: vector.
#id2 = affine_map<(a, b) -> (a, b)>
func.func @left_alone(%x: tensor<16x16xf32>, %y: tensor<16x3xf32>,
                      %z: tensor<16x80xf32>) -> (tensor<16x16xf32>, tensor<16x3xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16xf32>) {
  %e = tensor.empty() : tensor<16x16xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(a, b) -> (b, a)>, #id2],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<16x16xf32>) outs(%e : tensor<16x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<16x16xf32>
  %e3 = tensor.empty() : tensor<16x3xf32>
  %short = linalg.generic {indexing_maps = [affine_map<(a, b) -> (15 - a, b)>, #id2],
                           iterator_types = ["parallel", "parallel"]}
      ins(%y : tensor<16x3xf32>) outs(%e3 : tensor<16x3xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<16x3xf32>
  %wide = linalg.generic {indexing_maps = [affine_map<(a, b) -> (a, b * 5)>, #id2],
                          iterator_types = ["parallel", "parallel"]}
      ins(%z : tensor<16x80xf32>) outs(%e : tensor<16x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<16x16xf32>
  %neg = linalg.generic {indexing_maps = [affine_map<(a, b) -> (15 - a, b)>, #id2],
                         iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<16x16xf32>) outs(%e : tensor<16x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %i = linalg.index 1 : index
    %c = arith.index_cast %i : index to i32
    %f = arith.sitofp %c : i32 to f32
    %n = arith.addf %in, %f : f32
    linalg.yield %n : f32
  } -> tensor<16x16xf32>
  %copy = linalg.generic {indexing_maps = [#id2, #id2],
                          iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<16x16xf32>) outs(%e : tensor<16x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<16x16xf32>
  %e1 = tensor.empty() : tensor<16xf32>
  %sum = linalg.generic {indexing_maps = [#id2, affine_map<(a, b) -> (a)>],
                         iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x16xf32>) outs(%e1 : tensor<16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<16xf32>
  return %t, %short, %wide, %neg, %copy, %sum : tensor<16x16xf32>, tensor<16x3xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16xf32>
}

// -----

// Bodies that compute on the way (casts, a ReLU with a constant from
// outside, fused into the gathers by mp-fuse-elementwise): the same
// arithmetic on the row vector, values from outside broadcast.
// CHECK-LABEL: func.func @computing
// CHECK-SAME: %[[X:[^:]+]]: tensor<64x30x30xf16>
// CHECK: %[[ROW:.*]] = vector.transfer_read %[[X]]{{.*}} : tensor<64x30x30xf16>, vector<27xf16>
// CHECK: %[[EVERY2:.*]] = vector.shuffle %[[ROW]], %[[ROW]] [0, 2, {{.*}}] : vector<27xf16>, vector<27xf16>
// CHECK: %[[WIDE:.*]] = arith.extf %[[EVERY2]] : vector<14xf16> to vector<14xf32>
// CHECK: %[[ZERO:.*]] = vector.broadcast %{{.*}} : f32 to vector<14xf32>
// CHECK: %[[RELU:.*]] = arith.maximumf %[[WIDE]], %[[ZERO]] : vector<14xf32>
// CHECK: vector.transfer_write %[[RELU]], %{{.*}} : vector<14xf32>, tensor<3x64x14x14xf32>
// CHECK-NOT: linalg.generic
func.func @computing(%x: tensor<64x30x30xf16>) -> tensor<3x64x14x14xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x64x14x14xf32>
  %g = linalg.generic {
      indexing_maps = [affine_map<(kh, n, oh, ow) -> (n, oh * 2 + kh, ow * 2)>,
                       affine_map<(kh, n, oh, ow) -> (kh, n, oh, ow)>],
      iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<64x30x30xf16>) outs(%e : tensor<3x64x14x14xf32>) {
  ^bb0(%in: f16, %out: f32):
    %w = arith.extf %in : f16 to f32
    %r = arith.maximumf %w, %zero : f32
    linalg.yield %r : f32
  } -> tensor<3x64x14x14xf32>
  return %g : tensor<3x64x14x14xf32>
}

// -----

// Left alone: elements that vectors cannot hold.
// CHECK-LABEL: func.func @complex_elements
// CHECK-NOT: vector.
// CHECK: linalg.generic
func.func @complex_elements(%x: tensor<4x8x16xcomplex<f32>>) -> tensor<8x4x16xcomplex<f32>> {
  %e = tensor.empty() : tensor<8x4x16xcomplex<f32>>
  %g = linalg.generic {
      indexing_maps = [affine_map<(a, b, c) -> (b, a, c)>,
                       affine_map<(a, b, c) -> (a, b, c)>],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : tensor<4x8x16xcomplex<f32>>) outs(%e : tensor<8x4x16xcomplex<f32>>) {
  ^bb0(%in: complex<f32>, %out: complex<f32>):
    linalg.yield %in : complex<f32>
  } -> tensor<8x4x16xcomplex<f32>>
  return %g : tensor<8x4x16xcomplex<f32>>
}
