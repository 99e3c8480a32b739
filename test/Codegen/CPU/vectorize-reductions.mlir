// RUN: mp-opt %s --split-input-file --mp-vectorize-reductions | FileCheck %s

// A bias gradient: out[c] = sum over n, h, w of in[n, c, h, w]. The image's
// height and width merge into one row of 196: 12 vector reads of 16, 16
// partial sums added up, then the last 4 elements one at a time, then the
// total added to out[c].
// CHECK-LABEL: func.func @bias_gradient
// CHECK: %[[ROWS:.*]] = tensor.collapse_shape %arg0 {{\[\[}}0], [1], [2, 3]] : tensor<8x4x14x14xf32> into tensor<8x4x196xf32>
// CHECK: scf.for %[[N:.*]] = %c0 to %c8
// CHECK: scf.for %[[C:.*]] = %c0 to %c4 {{.*}} iter_args(%[[ACC:.*]] =
// CHECK: %[[PARTIAL:.*]] = scf.for %[[COL:.*]] = %c0{{.*}} to %c192 step %c16 iter_args(%[[SUMS:.*]] = %cst{{.*}}) -> (vector<16xf32>)
// CHECK: %[[CHUNK:.*]] = vector.transfer_read %[[ROWS]][%[[N]], %[[C]], %[[COL]]], %{{.*}} {in_bounds = [true]} : tensor<8x4x196xf32>, vector<16xf32>
// CHECK: arith.addf %[[SUMS]], %[[CHUNK]] : vector<16xf32>
// CHECK: %[[TOTAL:.*]] = vector.reduction <add>, %[[PARTIAL]] : vector<16xf32> into f32
// CHECK: %[[ROW:.*]] = scf.for %[[REST:.*]] = %c192 to %c196 step %c1{{.*}} iter_args(%[[S:.*]] = %[[TOTAL]]) -> (f32)
// CHECK: tensor.extract %[[ROWS]][%[[N]], %[[C]], %[[REST]]]
// CHECK: %[[OLD:.*]] = tensor.extract %[[ACC]][%[[C]]]
// CHECK: %[[NEW:.*]] = arith.addf %[[OLD]], %[[ROW]] : f32
// CHECK: tensor.insert %[[NEW]] into %[[ACC]][%[[C]]]
// CHECK-NOT: linalg.generic
func.func @bias_gradient(%x: tensor<8x4x14x14xf32>, %init: tensor<4xf32>) -> tensor<4xf32> {
  %s = linalg.generic {
      indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>,
                       affine_map<(n, c, h, w) -> (c)>],
      iterator_types = ["reduction", "parallel", "reduction", "reduction"]}
      ins(%x : tensor<8x4x14x14xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %in, %out : f32
    linalg.yield %a : f32
  } -> tensor<4xf32>
  return %s : tensor<4xf32>
}

// -----

// An f16 input widened and scaled by a constant and by a value from outside
// the body: the term is computed on vectors, the scalars broadcast.
// CHECK-LABEL: func.func @widened_scaled
// CHECK: vector.transfer_read {{.*}} : tensor<2x64xf16>, vector<16xf16>
// CHECK: arith.extf %{{.*}} : vector<16xf16> to vector<16xf32>
// CHECK: vector.broadcast %arg2 : f32 to vector<16xf32>
// CHECK: arith.mulf %{{.*}} : vector<16xf32>
// CHECK: arith.constant 2.500000e-01 : f32
// CHECK: vector.broadcast %{{.*}} : f32 to vector<16xf32>
// CHECK: arith.mulf %{{.*}} : vector<16xf32>
// CHECK: vector.reduction <add>
// CHECK-NOT: linalg.generic
func.func @widened_scaled(%x: tensor<2x64xf16>, %init: tensor<2xf32>, %k: f32) -> tensor<2xf32> {
  %s = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
      iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<2x64xf16>) outs(%init : tensor<2xf32>) {
  ^bb0(%in: f16, %out: f32):
    %w = arith.extf %in : f16 to f32
    %m = arith.mulf %w, %k : f32
    %q = arith.constant 0.25 : f32
    %t = arith.mulf %m, %q : f32
    %a = arith.addf %out, %t : f32
    linalg.yield %a : f32
  } -> tensor<2xf32>
  return %s : tensor<2xf32>
}

// -----

// Left alone: a row of 16 (too short), a reduction across rows (the input's
// innermost dimension is parallel), a max, an f16 accumulator, and a term
// that reads the output.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: vector.
// CHECK-COUNT-5: linalg.generic
// CHECK-NOT: vector.
#in = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
func.func @left_alone(%short: tensor<4x16xf32>, %x: tensor<64x64xf32>,
                      %h: tensor<4x64xf16>, %init: tensor<4xf32>,
                      %init64: tensor<64xf32>, %init16: tensor<4xf16>)
    -> (tensor<4xf32>, tensor<64xf32>, tensor<64xf32>, tensor<4xf16>, tensor<64xf32>) {
  %a = linalg.generic {indexing_maps = [#in, #row], iterator_types = ["parallel", "reduction"]}
      ins(%short : tensor<4x16xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(j, i) -> (i, j)>, affine_map<(j, i) -> (j)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<64x64xf32>) outs(%init64 : tensor<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<64xf32>
  %c = linalg.generic {indexing_maps = [#in, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<64x64xf32>) outs(%init64 : tensor<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.maximumf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<64xf32>
  %d = linalg.generic {indexing_maps = [#in, #row], iterator_types = ["parallel", "reduction"]}
      ins(%h : tensor<4x64xf16>) outs(%init16 : tensor<4xf16>) {
  ^bb0(%in: f16, %out: f16):
    %s = arith.addf %in, %out : f16
    linalg.yield %s : f16
  } -> tensor<4xf16>
  %e = linalg.generic {indexing_maps = [#in, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<64x64xf32>) outs(%init64 : tensor<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.mulf %in, %out : f32
    %s = arith.addf %m, %out : f32
    linalg.yield %s : f32
  } -> tensor<64xf32>
  return %a, %b, %c, %d, %e : tensor<4xf32>, tensor<64xf32>, tensor<64xf32>, tensor<4xf16>, tensor<64xf32>
}
