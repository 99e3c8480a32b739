// RUN: mp-opt %s --split-input-file --mp-pack-bf16-contractions | FileCheck %s
// RUN: mp-opt %s --split-input-file --mp-pack-bf16-contractions --mp-widen-contraction-operands | FileCheck %s --check-prefix=WIDEN

// A row-major left-hand side is reshaped into pairs (no copy); the
// right-hand side is copied into [K/2][N][2]: element (k, n) at
// [k / 2][n][k % 2]. mp-widen-contraction-operands leaves the pairs in bf16.
// CHECK-DAG: #[[PAIRS:.*]] = affine_map<(d0, d1, d2) -> (d0 * 2 + d2, d1)>
// CHECK-DAG: #[[ID3:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[LHS:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
// CHECK-DAG: #[[RHS:.*]] = affine_map<(d0, d1, d2, d3) -> (d2, d1, d3)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1)>
// CHECK-LABEL: func.func @matmul
// CHECK-SAME: %[[A:[^:]+]]: tensor<8x6xbf16>, %[[B:[^:]+]]: tensor<6x32xbf16>, %[[C:[^:]+]]: tensor<8x32xf32>
// CHECK: %[[A2:.*]] = tensor.expand_shape %[[A]] {{\[\[}}0], [1, 2]] output_shape [8, 3, 2] : tensor<8x6xbf16> into tensor<8x3x2xbf16>
// CHECK: %[[EMPTY:.*]] = tensor.empty() : tensor<3x32x2xbf16>
// CHECK: %[[B2:.*]] = linalg.generic {indexing_maps = [#[[PAIRS]], #[[ID3]]], iterator_types = ["parallel", "parallel", "parallel"]} ins(%[[B]] : tensor<6x32xbf16>) outs(%[[EMPTY]] : tensor<3x32x2xbf16>)
// CHECK: %[[R:.*]] = linalg.contract indexing_maps = [#[[LHS]], #[[RHS]], #[[OUT]]] ins(%[[A2]], %[[B2]] : tensor<8x3x2xbf16>, tensor<3x32x2xbf16>) outs(%[[C]] : tensor<8x32xf32>)
// CHECK: return %[[R]]
// WIDEN-LABEL: func.func @matmul
// WIDEN: linalg.contract {{.*}} ins(%{{.*}}, %{{.*}} : tensor<8x3x2xbf16>, tensor<3x32x2xbf16>)
func.func @matmul(%a: tensor<8x6xbf16>, %b: tensor<6x32xbf16>, %c: tensor<8x32xf32>) -> tensor<8x32xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<8x6xbf16>, tensor<6x32xbf16>) outs(%c : tensor<8x32xf32>) -> tensor<8x32xf32>
  return %0 : tensor<8x32xf32>
}

// -----

// Both operands with the reduction first (A^T x B, a weight gradient) and
// a batch loop: the left-hand side is copied too, every operand keeps the
// batch first.
// CHECK-DAG: #[[LHS_READ:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d2 * 2 + d3, d1)>
// CHECK-DAG: #[[RHS_READ:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1 * 2 + d3, d2)>
// CHECK-LABEL: func.func @batch_transposed
// CHECK: %[[A2:.*]] = linalg.generic {indexing_maps = [#[[LHS_READ]], #{{.*}}]{{.*}} ins(%{{.*}} : tensor<3x4x8xbf16>) outs(%{{.*}} : tensor<3x8x2x2xbf16>)
// CHECK: %[[B2:.*]] = linalg.generic {indexing_maps = [#[[RHS_READ]], #{{.*}}]{{.*}} ins(%{{.*}} : tensor<3x4x16xbf16>) outs(%{{.*}} : tensor<3x2x16x2xbf16>)
// CHECK: linalg.contract {{.*}} ins(%[[A2]], %[[B2]] : tensor<3x8x2x2xbf16>, tensor<3x2x16x2xbf16>) outs(%{{.*}} : tensor<3x8x16xf32>)
#a = affine_map<(b, m, n, k) -> (b, k, m)>
#b = affine_map<(b, m, n, k) -> (b, k, n)>
#c = affine_map<(b, m, n, k) -> (b, m, n)>
func.func @batch_transposed(%a: tensor<3x4x8xbf16>, %b: tensor<3x4x16xbf16>, %c: tensor<3x8x16xf32>) -> tensor<3x8x16xf32> {
  %0 = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<3x4x8xbf16>, tensor<3x4x16xbf16>) outs(%c : tensor<3x8x16xf32>) {
  ^bb0(%x: bf16, %y: bf16, %acc: f32):
    %x32 = arith.extf %x : bf16 to f32
    %y32 = arith.extf %y : bf16 to f32
    %p = arith.mulf %x32, %y32 : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<3x8x16xf32>
  return %0 : tensor<3x8x16xf32>
}

// -----

// Left alone: an odd K, N not a multiple of 16, f16 operands, an f16
// accumulator, dynamic sizes.
// CHECK-LABEL: func.func @not_packed
// CHECK-NOT: linalg.contract
// CHECK-NOT: tensor.expand_shape
// CHECK-COUNT-5: linalg.matmul
// CHECK-NOT: linalg.contract
func.func @not_packed(%a: tensor<8x5xbf16>, %b: tensor<5x32xbf16>, %c: tensor<8x32xf32>,
                      %d: tensor<8x6xbf16>, %e: tensor<6x24xbf16>, %f: tensor<8x24xf32>,
                      %g: tensor<8x6xf16>, %h: tensor<6x32xf16>, %i: tensor<8x32xf32>,
                      %j: tensor<8x6xbf16>, %k: tensor<6x32xbf16>, %l: tensor<8x32xbf16>,
                      %m: tensor<?x6xbf16>, %n: tensor<?x32xf32>)
    -> (tensor<8x32xf32>, tensor<8x24xf32>, tensor<8x32xf32>, tensor<8x32xbf16>, tensor<?x32xf32>) {
  %0 = linalg.matmul ins(%a, %b : tensor<8x5xbf16>, tensor<5x32xbf16>) outs(%c : tensor<8x32xf32>) -> tensor<8x32xf32>
  %1 = linalg.matmul ins(%d, %e : tensor<8x6xbf16>, tensor<6x24xbf16>) outs(%f : tensor<8x24xf32>) -> tensor<8x24xf32>
  %2 = linalg.matmul ins(%g, %h : tensor<8x6xf16>, tensor<6x32xf16>) outs(%i : tensor<8x32xf32>) -> tensor<8x32xf32>
  %3 = linalg.matmul ins(%j, %k : tensor<8x6xbf16>, tensor<6x32xbf16>) outs(%l : tensor<8x32xbf16>) -> tensor<8x32xbf16>
  %4 = linalg.matmul ins(%m, %k : tensor<?x6xbf16>, tensor<6x32xbf16>) outs(%n : tensor<?x32xf32>) -> tensor<?x32xf32>
  return %0, %1, %2, %3, %4 : tensor<8x32xf32>, tensor<8x24xf32>, tensor<8x32xf32>, tensor<8x32xbf16>, tensor<?x32xf32>
}

// -----

// Left alone: a body that multiplies in bf16 and extends the product (it
// rounds each product to bf16; linalg.contract would not).
// CHECK-LABEL: func.func @bf16_products
// CHECK-NOT: linalg.contract
// CHECK: arith.mulf %{{.*}}, %{{.*}} : bf16
func.func @bf16_products(%a: tensor<8x6xbf16>, %b: tensor<6x32xbf16>, %c: tensor<8x32xf32>) -> tensor<8x32xf32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<8x6xbf16>, tensor<6x32xbf16>) outs(%c : tensor<8x32xf32>) {
  ^bb0(%x: bf16, %y: bf16, %acc: f32):
    %p = arith.mulf %x, %y : bf16
    %p32 = arith.extf %p : bf16 to f32
    %s = arith.addf %acc, %p32 : f32
    linalg.yield %s : f32
  } -> tensor<8x32xf32>
  return %0 : tensor<8x32xf32>
}
