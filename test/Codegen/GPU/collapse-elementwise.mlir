// RUN: mp-opt %s --split-input-file --mp-gpu-collapse-elementwise | FileCheck %s

// A cast of the input batch that is then flattened into rows: computed on
// the rows (its input and its tensor.empty collapsed), so the GEMM reads
// the cast's result itself.
// CHECK-LABEL: func.func @batch_cast
// CHECK: %[[X:.*]] = tensor.collapse_shape %arg0 {{\[}}[0], [1, 2, 3]] : tensor<64x1x28x28xf32> into tensor<64x784xf32>
// CHECK: %[[E:.*]] = tensor.empty() : tensor<64x784xf16>
// CHECK: %[[H:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]} ins(%[[X]] : tensor<64x784xf32>) outs(%[[E]] : tensor<64x784xf16>)
// CHECK: arith.truncf
// CHECK-NOT: tensor.collapse_shape
// CHECK: linalg.matmul ins(%[[H]], %arg1 : tensor<64x784xf16>, tensor<784x128xf16>)
func.func @batch_cast(%x: tensor<64x1x28x28xf32>, %w: tensor<784x128xf16>, %c: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %e = tensor.empty() : tensor<64x1x28x28xf16>
  %h = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (n, c, h, w)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<64x1x28x28xf32>) outs(%e : tensor<64x1x28x28xf16>) {
  ^bb0(%v: f32, %o: f16):
    %t = arith.truncf %v : f32 to f16
    linalg.yield %t : f16
  } -> tensor<64x1x28x28xf16>
  %rows = tensor.collapse_shape %h [[0], [1, 2, 3]] : tensor<64x1x28x28xf16> into tensor<64x784xf16>
  %r = linalg.matmul ins(%rows, %w : tensor<64x784xf16>, tensor<784x128xf16>) outs(%c : tensor<64x128xf32>) -> tensor<64x128xf32>
  return %r : tensor<64x128xf32>
}

// -----

// Left alone: an op of what another op computed (it may fuse with that op
// on its shape: a ReLU into its convolution's epilogue), an op whose result
// is also read unflattened, a reduction.
// CHECK-LABEL: func.func @left_alone
// CHECK: %[[R:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<4x2x3xf32>)
// CHECK: tensor.collapse_shape %[[R]]
// CHECK: %[[T:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<4x2x3xf16>)
// CHECK: tensor.collapse_shape %[[T]]
// CHECK: %[[S:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]
// CHECK: tensor.collapse_shape %[[S]]
func.func @left_alone(%x: tensor<4x2x3xf32>, %y: tensor<4x2x3xf32>) -> (tensor<4x6xf32>, tensor<4x6xf16>, tensor<4x2x3xf16>, tensor<8xf32>) {
  %sum = arith.addf %x, %y : tensor<4x2x3xf32>
  %e = tensor.empty() : tensor<4x2x3xf32>
  %relu = linalg.generic {indexing_maps = [affine_map<(a, b, c) -> (a, b, c)>, affine_map<(a, b, c) -> (a, b, c)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%sum : tensor<4x2x3xf32>) outs(%e : tensor<4x2x3xf32>) {
  ^bb0(%v: f32, %o: f32):
    %z = arith.constant 0.0 : f32
    %m = arith.maximumf %v, %z : f32
    linalg.yield %m : f32
  } -> tensor<4x2x3xf32>
  %0 = tensor.collapse_shape %relu [[0], [1, 2]] : tensor<4x2x3xf32> into tensor<4x6xf32>
  %e16 = tensor.empty() : tensor<4x2x3xf16>
  %t = linalg.generic {indexing_maps = [affine_map<(a, b, c) -> (a, b, c)>, affine_map<(a, b, c) -> (a, b, c)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : tensor<4x2x3xf32>) outs(%e16 : tensor<4x2x3xf16>) {
  ^bb0(%v: f32, %o: f16):
    %h = arith.truncf %v : f32 to f16
    linalg.yield %h : f16
  } -> tensor<4x2x3xf16>
  %1 = tensor.collapse_shape %t [[0], [1, 2]] : tensor<4x2x3xf16> into tensor<4x6xf16>
  %z = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<4x2xf32>
  %f = linalg.fill ins(%z : f32) outs(%es : tensor<4x2xf32>) -> tensor<4x2xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(a, b, c) -> (a, b, c)>, affine_map<(a, b, c) -> (a, b)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<4x2x3xf32>) outs(%f : tensor<4x2xf32>) {
  ^bb0(%v: f32, %o: f32):
    %a = arith.addf %v, %o : f32
    linalg.yield %a : f32
  } -> tensor<4x2xf32>
  %2 = tensor.collapse_shape %s [[0, 1]] : tensor<4x2xf32> into tensor<8xf32>
  return %0, %1, %t, %2 : tensor<4x6xf32>, tensor<4x6xf16>, tensor<4x2x3xf16>, tensor<8xf32>
}

// -----

// A gradient computed on 64x28x32 and cast to f16 after it is flattened
// into 1792x32 rows: the cast runs on the gradient's shape instead (its
// result flattened for the GEMM), over the points of the op that computes
// the gradient, with whose kernel it then fuses. A transpose of the rows
// (not elementwise at the same points) keeps the rows' shape.
// CHECK-LABEL: func.func @gradient_cast
// CHECK: %[[G:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<64x28x32xf32>)
// CHECK: arith.addf
// CHECK: %[[GROWS:.*]] = tensor.collapse_shape %[[G]] {{\[}}[0, 1], [2]]
// CHECK: %[[H:.*]] = linalg.generic {{.*}} ins(%[[G]] : tensor<64x28x32xf32>) outs(%{{.*}} : tensor<64x28x32xf16>)
// CHECK: arith.truncf
// CHECK: %[[ROWS:.*]] = tensor.collapse_shape %[[H]] {{\[}}[0, 1], [2]] : tensor<64x28x32xf16> into tensor<1792x32xf16>
// CHECK: linalg.matmul ins(%[[ROWS]], %arg2 :
// CHECK: linalg.generic {{.*}} ins(%[[GROWS]] : tensor<1792x32xf32>) outs(%{{.*}} : tensor<32x1792xf32>)
func.func @gradient_cast(%a: tensor<64x28x32xf32>, %b: tensor<64x28x32xf32>, %w: tensor<32x32xf16>, %c: tensor<1792x32xf32>) -> (tensor<1792x32xf32>, tensor<32x1792xf32>) {
  %e = tensor.empty() : tensor<64x28x32xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, j, k)>, affine_map<(i, j, k) -> (i, j, k)>, affine_map<(i, j, k) -> (i, j, k)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%a, %b : tensor<64x28x32xf32>, tensor<64x28x32xf32>) outs(%e : tensor<64x28x32xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<64x28x32xf32>
  %rows = tensor.collapse_shape %g [[0, 1], [2]] : tensor<64x28x32xf32> into tensor<1792x32xf32>
  %e16 = tensor.empty() : tensor<1792x32xf16>
  %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%rows : tensor<1792x32xf32>) outs(%e16 : tensor<1792x32xf16>) {
  ^bb0(%x: f32, %o: f16):
    %t = arith.truncf %x : f32 to f16
    linalg.yield %t : f16
  } -> tensor<1792x32xf16>
  %r = linalg.matmul ins(%h, %w : tensor<1792x32xf16>, tensor<32x32xf16>) outs(%c : tensor<1792x32xf32>) -> tensor<1792x32xf32>
  %et = tensor.empty() : tensor<32x1792xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (j, i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%rows : tensor<1792x32xf32>) outs(%et : tensor<32x1792xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<32x1792xf32>
  return %r, %t : tensor<1792x32xf32>, tensor<32x1792xf32>
}
