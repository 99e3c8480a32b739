// RUN: mp-opt %s --split-input-file --mp-gpu-expand-elementwise | FileCheck %s

// The cast of a GEMM's rows, unflattened into images that the ReLU's
// gradient reads: computed on the images (its input and its tensor.empty
// expanded), so that elementwise fusion can merge the two.
// CHECK-LABEL: func.func @rows_cast
// CHECK: %[[G:.*]] = linalg.matmul
// CHECK: %[[X:.*]] = tensor.expand_shape %[[G]] {{\[}}[0], [1, 2, 3]] output_shape [4, 2, 3, 3] : tensor<4x18xf32> into tensor<4x2x3x3xf32>
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4x2x3x3xf16>
// CHECK: %[[H:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%[[X]] : tensor<4x2x3x3xf32>) outs(%[[E]] : tensor<4x2x3x3xf16>)
// CHECK: arith.truncf
// CHECK-NOT: tensor.expand_shape
// CHECK: linalg.generic {{.*}} ins(%arg2, %[[H]] : tensor<4x2x3x3xf16>, tensor<4x2x3x3xf16>)
func.func @rows_cast(%a: tensor<4x8xf16>, %b: tensor<8x18xf16>, %y: tensor<4x2x3x3xf16>) -> tensor<4x2x3x3xf16> {
  %z = arith.constant 0.0 : f32
  %ec = tensor.empty() : tensor<4x18xf32>
  %c = linalg.fill ins(%z : f32) outs(%ec : tensor<4x18xf32>) -> tensor<4x18xf32>
  %g = linalg.matmul ins(%a, %b : tensor<4x8xf16>, tensor<8x18xf16>) outs(%c : tensor<4x18xf32>) -> tensor<4x18xf32>
  %e = tensor.empty() : tensor<4x18xf16>
  %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%g : tensor<4x18xf32>) outs(%e : tensor<4x18xf16>) {
  ^bb0(%v: f32, %o: f16):
    %t = arith.truncf %v : f32 to f16
    linalg.yield %t : f16
  } -> tensor<4x18xf16>
  %x = tensor.expand_shape %h [[0], [1, 2, 3]] output_shape [4, 2, 3, 3] : tensor<4x18xf16> into tensor<4x2x3x3xf16>
  %er = tensor.empty() : tensor<4x2x3x3xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (n, c, h, w)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%y, %x : tensor<4x2x3x3xf16>, tensor<4x2x3x3xf16>) outs(%er : tensor<4x2x3x3xf16>) {
  ^bb0(%v: f16, %d: f16, %o: f16):
    %zero = arith.constant 0.0 : f16
    %pos = arith.cmpf ogt, %v, %zero : f16
    %s = arith.select %pos, %d, %zero : f16
    linalg.yield %s : f16
  } -> tensor<4x2x3x3xf16>
  return %r : tensor<4x2x3x3xf16>
}

// -----

// Left alone: an expanded result read by a GEMM (which reads its operands
// through reshapes), one also read unexpanded, one read by a reduction.
// CHECK-LABEL: func.func @left_alone
// CHECK: %[[A:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<4x6xf16>)
// CHECK: tensor.expand_shape %[[A]]
// CHECK: %[[B:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<4x6xf16>)
// CHECK: tensor.expand_shape %[[B]]
// CHECK: %[[C:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<4x6xf16>)
// CHECK: tensor.expand_shape %[[C]]
// CHECK-NOT: tensor.expand_shape
func.func @left_alone(%x: tensor<4x6xf32>, %w: tensor<2x3x5xf16>, %acc: tensor<2x4x5xf32>) -> (tensor<2x4x5xf32>, tensor<4x2x3xf16>, tensor<4x6xf16>, tensor<4x2xf16>) {
  %e = tensor.empty() : tensor<4x6xf16>
  %a = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x6xf32>) outs(%e : tensor<4x6xf16>) {
  ^bb0(%v: f32, %o: f16):
    %t = arith.truncf %v : f32 to f16
    linalg.yield %t : f16
  } -> tensor<4x6xf16>
  %ax = tensor.expand_shape %a [[0], [1, 2]] output_shape [4, 2, 3] : tensor<4x6xf16> into tensor<4x2x3xf16>
  %at = tensor.empty() : tensor<2x4x3xf16>
  %t = linalg.transpose ins(%ax : tensor<4x2x3xf16>) outs(%at : tensor<2x4x3xf16>) permutation = [1, 0, 2]
  %m = linalg.batch_matmul ins(%t, %w : tensor<2x4x3xf16>, tensor<2x3x5xf16>) outs(%acc : tensor<2x4x5xf32>) -> tensor<2x4x5xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x6xf32>) outs(%e : tensor<4x6xf16>) {
  ^bb0(%v: f32, %o: f16):
    %t2 = arith.truncf %v : f32 to f16
    linalg.yield %t2 : f16
  } -> tensor<4x6xf16>
  %bx = tensor.expand_shape %b [[0], [1, 2]] output_shape [4, 2, 3] : tensor<4x6xf16> into tensor<4x2x3xf16>
  %eb = tensor.empty() : tensor<4x2x3xf16>
  %bn = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, j, k)>, affine_map<(i, j, k) -> (i, j, k)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%bx : tensor<4x2x3xf16>) outs(%eb : tensor<4x2x3xf16>) {
  ^bb0(%v: f16, %o: f16):
    %n = arith.negf %v : f16
    linalg.yield %n : f16
  } -> tensor<4x2x3xf16>
  %c = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x6xf32>) outs(%e : tensor<4x6xf16>) {
  ^bb0(%v: f32, %o: f16):
    %t3 = arith.truncf %v : f32 to f16
    linalg.yield %t3 : f16
  } -> tensor<4x6xf16>
  %cx = tensor.expand_shape %c [[0], [1, 2]] output_shape [4, 2, 3] : tensor<4x6xf16> into tensor<4x2x3xf16>
  %zero = arith.constant 0.0 : f16
  %es = tensor.empty() : tensor<4x2xf16>
  %f = linalg.fill ins(%zero : f16) outs(%es : tensor<4x2xf16>) -> tensor<4x2xf16>
  %s = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, j, k)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%cx : tensor<4x2x3xf16>) outs(%f : tensor<4x2xf16>) {
  ^bb0(%v: f16, %o: f16):
    %sum = arith.addf %v, %o : f16
    linalg.yield %sum : f16
  } -> tensor<4x2xf16>
  return %m, %bn, %b, %s : tensor<2x4x5xf32>, tensor<4x2x3xf16>, tensor<4x6xf16>, tensor<4x2xf16>
}

// -----

// Attention's heads: transposed (%t), collapsed with the batch for a GEMM,
// and that collapsed value transposed again (%u) for another GEMM. The
// second transpose computes on the heads' shape, reading %t itself, and
// its result is collapsed: elementwise fusion can then compose the two,
// and each GEMM reads a reshape of a copy that only it reads.
// CHECK-LABEL: func.func @heads_transposed_twice
// CHECK: %[[T:.*]] = linalg.generic {{.*}} ins(%arg0 : tensor<2x3x2x4xf16>) outs(%{{.*}} : tensor<2x2x3x4xf16>)
// CHECK: %[[C:.*]] = tensor.collapse_shape %[[T]] {{\[}}[0, 1], [2], [3]] : tensor<2x2x3x4xf16> into tensor<4x3x4xf16>
// CHECK: %[[U:.*]] = linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%[[T]] : tensor<2x2x3x4xf16>) outs(%{{.*}} : tensor<2x2x4x3xf16>)
// CHECK: %[[UC:.*]] = tensor.collapse_shape %[[U]] {{\[}}[0, 1], [2], [3]] : tensor<2x2x4x3xf16> into tensor<4x4x3xf16>
// CHECK: linalg.batch_matmul ins(%[[C]], %arg1
// CHECK: linalg.batch_matmul ins(%[[UC]], %arg2
func.func @heads_transposed_twice(%q: tensor<2x3x2x4xf16>, %k: tensor<4x4x5xf16>, %v: tensor<4x3x5xf16>) -> (tensor<4x3x5xf32>, tensor<4x4x5xf32>) {
  %z = arith.constant 0.0 : f32
  %et = tensor.empty() : tensor<2x2x3x4xf16>
  %t = linalg.transpose ins(%q : tensor<2x3x2x4xf16>) outs(%et : tensor<2x2x3x4xf16>) permutation = [0, 2, 1, 3]
  %c = tensor.collapse_shape %t [[0, 1], [2], [3]] : tensor<2x2x3x4xf16> into tensor<4x3x4xf16>
  %eu = tensor.empty() : tensor<4x4x3xf16>
  %u = linalg.transpose ins(%c : tensor<4x3x4xf16>) outs(%eu : tensor<4x4x3xf16>) permutation = [0, 2, 1]
  %e1 = tensor.empty() : tensor<4x3x5xf32>
  %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<4x3x5xf32>) -> tensor<4x3x5xf32>
  %g1 = linalg.batch_matmul ins(%c, %k : tensor<4x3x4xf16>, tensor<4x4x5xf16>) outs(%f1 : tensor<4x3x5xf32>) -> tensor<4x3x5xf32>
  %e2 = tensor.empty() : tensor<4x4x5xf32>
  %f2 = linalg.fill ins(%z : f32) outs(%e2 : tensor<4x4x5xf32>) -> tensor<4x4x5xf32>
  %g2 = linalg.batch_matmul ins(%u, %v : tensor<4x4x3xf16>, tensor<4x3x5xf16>) outs(%f2 : tensor<4x4x5xf32>) -> tensor<4x4x5xf32>
  return %g1, %g2 : tensor<4x3x5xf32>, tensor<4x4x5xf32>
}
