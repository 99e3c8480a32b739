// RUN: mp-opt %s --split-input-file --mp-gpu-fold-transposes | FileCheck %s

// A linear layer, x W^T: the GEMM reads W with B's map transposed, and the
// transpose goes.
// CHECK-DAG: #[[MK:.+]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[NK:.+]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG: #[[MN:.+]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @linear(
// CHECK-SAME: %[[X:.+]]: tensor<64x784xbf16>, %[[W:.+]]: tensor<128x784xbf16>
// CHECK-NOT: linalg.transpose
// CHECK: linalg.matmul indexing_maps = [#[[MK]], #[[NK]], #[[MN]]] ins(%[[X]], %[[W]] : tensor<64x784xbf16>, tensor<128x784xbf16>)
func.func @linear(%x: tensor<64x784xbf16>, %w: tensor<128x784xbf16>, %acc: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %e = tensor.empty() : tensor<784x128xbf16>
  %wt = linalg.transpose ins(%w : tensor<128x784xbf16>) outs(%e : tensor<784x128xbf16>) permutation = [1, 0]
  %y = linalg.matmul ins(%x, %wt : tensor<64x784xbf16>, tensor<784x128xbf16>) outs(%acc : tensor<64x128xf32>) -> tensor<64x128xf32>
  return %y : tensor<64x128xf32>
}

// -----

// A weight gradient, dY^T x: A's map transposed. The transpose that another
// op reads stays.
// CHECK-DAG: #[[KM:.+]] = affine_map<(d0, d1, d2) -> (d2, d0)>
// CHECK-DAG: #[[KN:.+]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-LABEL: func.func @weight_gradient(
// CHECK-SAME: %[[DY:.+]]: tensor<64x10xf16>, %[[X:.+]]: tensor<64x128xf16>
// CHECK: %[[T:.+]] = linalg.transpose ins(%[[DY]]
// CHECK: linalg.matmul indexing_maps = [#[[KM]], #[[KN]], #{{.+}}] ins(%[[DY]], %[[X]] : tensor<64x10xf16>, tensor<64x128xf16>)
// CHECK: return %{{.+}}, %[[T]]
func.func @weight_gradient(%dy: tensor<64x10xf16>, %x: tensor<64x128xf16>, %acc: tensor<10x128xf32>) -> (tensor<10x128xf32>, tensor<10x64xf16>) {
  %e = tensor.empty() : tensor<10x64xf16>
  %t = linalg.transpose ins(%dy : tensor<64x10xf16>) outs(%e : tensor<10x64xf16>) permutation = [1, 0]
  %dw = linalg.matmul ins(%t, %x : tensor<10x64xf16>, tensor<64x128xf16>) outs(%acc : tensor<10x128xf32>) -> tensor<10x128xf32>
  return %dw, %t : tensor<10x128xf32>, tensor<10x64xf16>
}

// -----

// Attention's scores, Q K^T, with the transpose a linalg.generic (as
// torch-mlir writes it) and the contraction a generic too.
// CHECK-DAG: #[[BMK:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
// CHECK-DAG: #[[BNK:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
// CHECK-LABEL: func.func @scores(
// CHECK-SAME: %[[Q:.+]]: tensor<4x28x16xf16>, %[[K:.+]]: tensor<4x28x16xf16>
// CHECK: linalg.generic {indexing_maps = [#[[BMK]], #[[BNK]], #{{.+}}]{{.*}} ins(%[[Q]], %[[K]] : tensor<4x28x16xf16>, tensor<4x28x16xf16>)
// CHECK-NOT: linalg.generic
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#swap = affine_map<(d0, d1, d2) -> (d0, d2, d1)>
func.func @scores(%q: tensor<4x28x16xf16>, %k: tensor<4x28x16xf16>, %acc: tensor<4x28x28xf32>) -> tensor<4x28x28xf32> {
  %e = tensor.empty() : tensor<4x16x28xf16>
  %kt = linalg.generic {indexing_maps = [#swap, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%k : tensor<4x28x16xf16>) outs(%e : tensor<4x16x28xf16>) {
  ^bb0(%in: f16, %out: f16):
    linalg.yield %in : f16
  } -> tensor<4x16x28xf16>
  %s = linalg.generic {indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, k, n)>, affine_map<(b, m, n, k) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%q, %kt : tensor<4x28x16xf16>, tensor<4x16x28xf16>) outs(%acc : tensor<4x28x28xf32>) {
  ^bb0(%a: f16, %b: f16, %c: f32):
    %a32 = arith.extf %a : f16 to f32
    %b32 = arith.extf %b : f16 to f32
    %p = arith.mulf %a32, %b32 : f32
    %r = arith.addf %c, %p : f32
    linalg.yield %r : f32
  } -> tensor<4x28x28xf32>
  return %s : tensor<4x28x28xf32>
}

// -----

// One transpose read as both operands (T x T): both fold, and it goes once.
// CHECK-DAG: #[[KM:.+]] = affine_map<(d0, d1, d2) -> (d2, d0)>
// CHECK-DAG: #[[NK:.+]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-LABEL: func.func @both_operands(
// CHECK-SAME: %[[X:.+]]: tensor<32x32xf16>
// CHECK-NOT: linalg.transpose
// CHECK: linalg.matmul indexing_maps = [#[[KM]], #[[NK]], #{{.+}}] ins(%[[X]], %[[X]] :
func.func @both_operands(%x: tensor<32x32xf16>, %acc: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %e = tensor.empty() : tensor<32x32xf16>
  %t = linalg.transpose ins(%x : tensor<32x32xf16>) outs(%e : tensor<32x32xf16>) permutation = [1, 0]
  %y = linalg.matmul ins(%t, %t : tensor<32x32xf16>, tensor<32x32xf16>) outs(%acc : tensor<32x32xf32>) -> tensor<32x32xf32>
  return %y : tensor<32x32xf32>
}

// -----

// Not folded: a transpose that moves the batch (the batch would no longer be
// outermost in B), a contraction of integers, which no GEMM of the GPU
// backend takes, and an f32 GEMM (on CUDA cores, whose threads read B's
// panel conflict-free only as K x N).
// CHECK-LABEL: func.func @kept(
// CHECK: %[[T:.+]] = linalg.transpose
// CHECK: linalg.batch_matmul ins(%{{.+}}, %[[T]] :
// CHECK: %[[U:.+]] = linalg.transpose
// CHECK: linalg.matmul ins(%{{.+}}, %[[U]] :
// CHECK: %[[V:.+]] = linalg.transpose
// CHECK: linalg.matmul ins(%{{.+}}, %[[V]] :
func.func @kept(%a: tensor<4x8x16xf16>, %b: tensor<16x4x8xf16>, %acc: tensor<4x8x8xf32>, %i: tensor<8x16xi32>, %j: tensor<8x16xi32>, %iacc: tensor<8x8xi32>, %x: tensor<64x784xf32>, %w: tensor<128x784xf32>, %facc: tensor<64x128xf32>) -> (tensor<4x8x8xf32>, tensor<8x8xi32>, tensor<64x128xf32>) {
  %e = tensor.empty() : tensor<4x16x8xf16>
  %bt = linalg.transpose ins(%b : tensor<16x4x8xf16>) outs(%e : tensor<4x16x8xf16>) permutation = [1, 0, 2]
  %y = linalg.batch_matmul ins(%a, %bt : tensor<4x8x16xf16>, tensor<4x16x8xf16>) outs(%acc : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %ei = tensor.empty() : tensor<16x8xi32>
  %jt = linalg.transpose ins(%j : tensor<8x16xi32>) outs(%ei : tensor<16x8xi32>) permutation = [1, 0]
  %z = linalg.matmul ins(%i, %jt : tensor<8x16xi32>, tensor<16x8xi32>) outs(%iacc : tensor<8x8xi32>) -> tensor<8x8xi32>
  %ef = tensor.empty() : tensor<784x128xf32>
  %wt = linalg.transpose ins(%w : tensor<128x784xf32>) outs(%ef : tensor<784x128xf32>) permutation = [1, 0]
  %f = linalg.matmul ins(%x, %wt : tensor<64x784xf32>, tensor<784x128xf32>) outs(%facc : tensor<64x128xf32>) -> tensor<64x128xf32>
  return %y, %z, %f : tensor<4x8x8xf32>, tensor<8x8xi32>, tensor<64x128xf32>
}

// -----

// A batch matmul's B transposed within each batch (K^T): folded, the batch
// still outermost.
// CHECK-DAG: #[[BMK:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
// CHECK-DAG: #[[BNK:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
// CHECK-LABEL: func.func @batch(
// CHECK-SAME: %[[A:.+]]: tensor<3x8x16xbf16>, %[[B:.+]]: tensor<3x24x16xbf16>
// CHECK-NOT: linalg.transpose
// CHECK: linalg.batch_matmul indexing_maps = [#[[BMK]], #[[BNK]], #{{.+}}] ins(%[[A]], %[[B]] :
func.func @batch(%a: tensor<3x8x16xbf16>, %b: tensor<3x24x16xbf16>, %acc: tensor<3x8x24xf32>) -> tensor<3x8x24xf32> {
  %e = tensor.empty() : tensor<3x16x24xbf16>
  %bt = linalg.transpose ins(%b : tensor<3x24x16xbf16>) outs(%e : tensor<3x16x24xbf16>) permutation = [0, 2, 1]
  %y = linalg.batch_matmul ins(%a, %bt : tensor<3x8x16xbf16>, tensor<3x16x24xbf16>) outs(%acc : tensor<3x8x24xf32>) -> tensor<3x8x24xf32>
  return %y : tensor<3x8x24xf32>
}

// -----

// A chain of transposes, here two that cancel: the GEMM reads the first
// one's input through both, and both go.
// CHECK-LABEL: func.func @chain(
// CHECK-SAME: %[[A:.+]]: tensor<3x8x16xbf16>, %[[B:.+]]: tensor<3x16x24xbf16>
// CHECK-NOT: linalg.transpose
// CHECK: linalg.batch_matmul{{.*}} ins(%[[A]], %[[B]] :
func.func @chain(%a: tensor<3x8x16xbf16>, %b: tensor<3x16x24xbf16>, %acc: tensor<3x8x24xf32>) -> tensor<3x8x24xf32> {
  %e = tensor.empty() : tensor<3x24x16xbf16>
  %bt = linalg.transpose ins(%b : tensor<3x16x24xbf16>) outs(%e : tensor<3x24x16xbf16>) permutation = [0, 2, 1]
  %e2 = tensor.empty() : tensor<3x16x24xbf16>
  %btt = linalg.transpose ins(%bt : tensor<3x24x16xbf16>) outs(%e2 : tensor<3x16x24xbf16>) permutation = [0, 2, 1]
  %y = linalg.batch_matmul ins(%a, %btt : tensor<3x8x16xbf16>, tensor<3x16x24xbf16>) outs(%acc : tensor<3x8x24xf32>) -> tensor<3x8x24xf32>
  return %y : tensor<3x8x24xf32>
}
