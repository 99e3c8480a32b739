// RUN: mp-opt %s --split-input-file --mp-fuse-elementwise | FileCheck %s

// A chain (cast, bias broadcast, add, relu) becomes one generic; the
// broadcast, a named op, is generalized and fused too.
// CHECK-LABEL: func.func @chain
// CHECK-COUNT-1: linalg.generic
// CHECK-NOT: linalg.generic
// CHECK-NOT: linalg.broadcast
// CHECK: arith.truncf
// CHECK: arith.extf
// CHECK: arith.addf
// CHECK: arith.maximumf
#id = affine_map<(i, j) -> (i, j)>
func.func @chain(%x: tensor<4x8xf32>, %b: tensor<8xf16>) -> tensor<4x8xf16> {
  %e16 = tensor.empty() : tensor<4x8xf16>
  %h = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%e16 : tensor<4x8xf16>) {
  ^bb0(%a: f32, %o: f16):
    %t = arith.truncf %a : f32 to f16
    linalg.yield %t : f16
  } -> tensor<4x8xf16>
  %bb = linalg.broadcast ins(%b : tensor<8xf16>) outs(%e16 : tensor<4x8xf16>) dimensions = [0]
  %zero = arith.constant 0.0 : f32
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%h, %bb : tensor<4x8xf16>, tensor<4x8xf16>) outs(%e16 : tensor<4x8xf16>) {
  ^bb0(%a: f16, %c: f16, %o: f16):
    %ae = arith.extf %a : f16 to f32
    %ce = arith.extf %c : f16 to f32
    %s = arith.addf %ae, %ce : f32
    %m = arith.maximumf %s, %zero : f32
    %t = arith.truncf %m : f32 to f16
    linalg.yield %t : f16
  } -> tensor<4x8xf16>
  return %r : tensor<4x8xf16>
}

// -----

// exp feeding a sum: computed inside the reduction.
// CHECK-LABEL: func.func @exp_sum
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK: math.exp
// CHECK: arith.addf
// CHECK-NOT: linalg.generic
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
func.func @exp_sum(%x: tensor<4x8xf32>, %acc: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %ex = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = math.exp %a : f32
    linalg.yield %v : f32
  } -> tensor<4x8xf32>
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%ex : tensor<4x8xf32>) outs(%acc : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = arith.addf %a, %o : f32
    linalg.yield %v : f32
  } -> tensor<4xf32>
  return %s : tensor<4xf32>
}

// -----

// Not fused: a result with two uses (its computation would be repeated),
// and a cast feeding a contraction (its f16 operand must stay visible to
// the Tensor Core path).
// CHECK-LABEL: func.func @kept
// CHECK: %[[T:.*]] = linalg.generic
// CHECK: arith.truncf
// CHECK: linalg.generic {{.*}}ins(%[[T]] :
// CHECK: %[[C:.*]] = linalg.generic
// CHECK: arith.truncf
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]{{.*}}ins(%[[C]], %arg1 :
#id = affine_map<(i, j) -> (i, j)>
func.func @kept(%x: tensor<4x8xf32>, %w: tensor<8x4xf16>, %y: tensor<4x8xf32>) -> (tensor<4x8xf16>, tensor<4x4xf32>, tensor<4x8xf16>) {
  %e16 = tensor.empty() : tensor<4x8xf16>
  %h = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%e16 : tensor<4x8xf16>) {
  ^bb0(%a: f32, %o: f16):
    %t = arith.truncf %a : f32 to f16
    linalg.yield %t : f16
  } -> tensor<4x8xf16>
  %sq = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%h : tensor<4x8xf16>) outs(%e16 : tensor<4x8xf16>) {
  ^bb0(%a: f16, %o: f16):
    %m = arith.mulf %a, %a : f16
    linalg.yield %m : f16
  } -> tensor<4x8xf16>
  %c16 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%y : tensor<4x8xf32>) outs(%e16 : tensor<4x8xf16>) {
  ^bb0(%a: f32, %o: f16):
    %t = arith.truncf %a : f32 to f16
    linalg.yield %t : f16
  } -> tensor<4x8xf16>
  %acc = tensor.empty() : tensor<4x4xf32>
  %mm = linalg.generic {
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
      iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%c16, %w : tensor<4x8xf16>, tensor<8x4xf16>) outs(%acc : tensor<4x4xf32>) {
  ^bb0(%a: f16, %b: f16, %o: f32):
    %ae = arith.extf %a : f16 to f32
    %be = arith.extf %b : f16 to f32
    %p = arith.mulf %ae, %be : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<4x4xf32>
  return %sq, %mm, %h : tensor<4x8xf16>, tensor<4x4xf32>, tensor<4x8xf16>
}
