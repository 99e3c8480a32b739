// RUN: mp-opt %s --split-input-file --mp-decompose-aggregates | FileCheck %s
// RUN: not mp-opt %S/Inputs/integer-softmax.mlir --mp-decompose-aggregates 2>&1 | FileCheck %s --check-prefix=INT
// INT: integer-softmax.mlir:5:8: error: cannot lower this op on 'tensor<2x37xi64>': it needs floating-point values

// CHECK-LABEL: func.func @softmax
// CHECK-NOT: linalg.softmax
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK: arith.maxnumf
// CHECK: math.exp
// CHECK: arith.addf
// CHECK: arith.divf
func.func @softmax(%x: tensor<2x16xf32>) -> tensor<2x16xf32> {
  %e = tensor.empty() : tensor<2x16xf32>
  %0 = linalg.softmax dimension(1) ins(%x : tensor<2x16xf32>) outs(%e : tensor<2x16xf32>) -> tensor<2x16xf32>
  return %0 : tensor<2x16xf32>
}

// -----

// Other ops are left alone.
// CHECK-LABEL: func.func @matmul
// CHECK-NEXT: linalg.matmul
func.func @matmul(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = linalg.matmul ins(%a, %a : tensor<4x4xf32>, tensor<4x4xf32>) outs(%a : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}
