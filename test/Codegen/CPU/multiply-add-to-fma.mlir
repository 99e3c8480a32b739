// RUN: mp-opt %s --split-input-file --mp-multiply-add-to-fma | FileCheck %s

// Named convolutions and contractions become generics whose body is one
// fused multiply-add (on tensors and on buffers); f16 operands keep their
// extensions.
// CHECK-LABEL: func.func @named
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]{{.*}} ins(%{{.*}}, %{{.*}} : memref<10xf32>, memref<3xf32>) outs(%{{.*}} : memref<8xf32>)
// CHECK-NEXT: ^bb0(%[[X:.*]]: f32, %[[W:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK-NEXT: %[[F:.*]] = math.fma %[[X]], %[[W]], %[[ACC]] : f32
// CHECK-NEXT: linalg.yield %[[F]] : f32
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<4x8xf16>, tensor<8x16xf16>) outs(%{{.*}} : tensor<4x16xf32>)
// CHECK-NEXT: ^bb0(%[[A:.*]]: f16, %[[B:.*]]: f16, %[[C:.*]]: f32):
// CHECK-NEXT: %[[EA:.*]] = arith.extf %[[A]] : f16 to f32
// CHECK-NEXT: %[[EB:.*]] = arith.extf %[[B]] : f16 to f32
// CHECK-NEXT: %[[G:.*]] = math.fma %[[EA]], %[[EB]], %[[C]] : f32
// CHECK-NEXT: linalg.yield %[[G]] : f32
// CHECK-NOT: linalg.conv
// CHECK-NOT: linalg.matmul
// CHECK-NOT: arith.mulf
func.func @named(%x: memref<10xf32>, %w: memref<3xf32>, %y: memref<8xf32>, %a: tensor<4x8xf16>, %b: tensor<8x16xf16>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
  linalg.conv_1d ins(%x, %w : memref<10xf32>, memref<3xf32>) outs(%y : memref<8xf32>)
  %0 = linalg.matmul ins(%a, %b : tensor<4x8xf16>, tensor<8x16xf16>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// -----

// A generic contraction with the product on the left of the sum.
// CHECK-LABEL: func.func @generic
// CHECK: ^bb0(%[[X:.*]]: f32, %[[Y:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK-NEXT: %[[F:.*]] = math.fma %[[X]], %[[Y]], %[[ACC]] : f32
// CHECK-NEXT: linalg.yield %[[F]] : f32
func.func @generic(%a: memref<4x8xf32>, %b: memref<16x8xf32>, %c: memref<4x16xf32>) {
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : memref<4x8xf32>, memref<16x8xf32>) outs(%c : memref<4x16xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %p, %acc : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Left alone: an elementwise multiply-add (no reduction: not a
// contraction), a contraction whose body does more than multiply and
// accumulate, an integer one, f16 and f64 accumulators, and a max pooling.
// CHECK-LABEL: func.func @untouched
// CHECK-NOT: math.fma
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: arith.mulf
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: linalg.matmul {{.*}}memref<4x8xi32>
// CHECK: linalg.matmul {{.*}}outs(%{{.*}} : memref<4x16xf16>)
// CHECK: linalg.matmul {{.*}}outs(%{{.*}} : memref<4x16xf64>)
// CHECK: linalg.pooling_nwc_max
// CHECK-NOT: math.fma
func.func @untouched(%a: memref<4x8xf32>, %b: memref<8x16xf32>, %c: memref<4x16xf32>, %e: memref<4x8xf32>, %i: memref<4x8xi32>, %j: memref<8x16xi32>, %k: memref<4x16xi32>, %x: memref<1x10x2xf32>, %w: memref<3xf32>, %y: memref<1x8x2xf32>, %h: memref<4x8xf16>, %g: memref<8x16xf16>, %hc: memref<4x16xf16>, %dc: memref<4x16xf64>) {
  linalg.generic {indexing_maps = [affine_map<(m, k) -> (m, k)>, affine_map<(m, k) -> (m, k)>, affine_map<(m, k) -> (m, k)>], iterator_types = ["parallel", "parallel"]} ins(%a, %a : memref<4x8xf32>, memref<4x8xf32>) outs(%e : memref<4x8xf32>) {
  ^bb0(%u: f32, %v: f32, %acc: f32):
    %p = arith.mulf %u, %v : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : memref<4x8xf32>, memref<8x16xf32>) outs(%c : memref<4x16xf32>) {
  ^bb0(%u: f32, %v: f32, %acc: f32):
    %p = arith.mulf %u, %v : f32
    %q = arith.mulf %p, %p : f32
    %s = arith.addf %acc, %q : f32
    linalg.yield %s : f32
  }
  linalg.matmul ins(%i, %j : memref<4x8xi32>, memref<8x16xi32>) outs(%k : memref<4x16xi32>)
  linalg.matmul ins(%h, %g : memref<4x8xf16>, memref<8x16xf16>) outs(%hc : memref<4x16xf16>)
  linalg.matmul ins(%a, %b : memref<4x8xf32>, memref<8x16xf32>) outs(%dc : memref<4x16xf64>)
  linalg.pooling_nwc_max {dilations = dense<1> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>} ins(%x, %w : memref<1x10x2xf32>, memref<3xf32>) outs(%y : memref<1x8x2xf32>)
  return
}
