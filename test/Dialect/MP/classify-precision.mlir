// RUN: mp-opt %s --split-input-file --mp-classify-precision | FileCheck %s
// RUN: mp-opt %s --split-input-file --mp-classify-precision='policy=bf16' | FileCheck %s --check-prefix=BF16
// RUN: mp-opt %s --split-input-file --mp-classify-precision='level=tensor-cores-only' | FileCheck %s --check-prefix=TCO
// RUN: mp-opt %s --split-input-file --mp-classify-precision='level=treat-infer-as-deny' | FileCheck %s --check-prefix=TIAD
// RUN: mp-opt %s --split-input-file --mp-classify-precision='allow-remove=linalg.matmul,linalg:contraction' | FileCheck %s --check-prefix=NOMM
// RUN: mp-opt %s --split-input-file --mp-classify-precision='infer-remove=linalg.add deny-add=linalg.add' | FileCheck %s --check-prefix=ADDDENY
// RUN: mp-opt %s --split-input-file --mp-classify-precision='low-precision-boundaries=true policy=bf16' | FileCheck %s --check-prefix=BOUNDARY
// RUN: mp-opt %s --split-input-file --mp-classify-precision='low-precision-accumulation=true' | FileCheck %s --check-prefix=LOWACC
// RUN: mp-opt %s --split-input-file --mp-classify-precision='level=unsafe-force-all' | FileCheck %s --check-prefix=UFA
// RUN: mp-opt %s --split-input-file --mp-classify-precision='allow-add=mp.update_scale,func.call level=unsafe-force-all' | FileCheck %s --check-prefix=FIXED

// Contractions go low, exp stays f32, the add between two matmuls goes low,
// the add after exp inherits deny.
// CHECK-LABEL: func.func @basic
// CHECK: %[[MM:.*]] = linalg.matmul {mp.class = #mp.class<allow>, mp.precision = #mp.precision<f16>}
// CHECK: linalg.add {mp.class = #mp.class<infer>, mp.precision = #mp.precision<f16>} ins(%[[MM]]
// CHECK: linalg.matmul {mp.class = #mp.class<allow>, mp.precision = #mp.precision<f16>}
// CHECK: linalg.exp {mp.class = #mp.class<deny>, mp.precision = #mp.precision<f32>}
// CHECK: linalg.add {mp.class = #mp.class<infer>, mp.precision = #mp.precision<f32>}
// BF16-LABEL: func.func @basic
// BF16: linalg.matmul {mp.class = #mp.class<allow>, mp.precision = #mp.precision<bf16>}
// TCO-LABEL: func.func @basic
// TCO: linalg.matmul {{.*}}mp.precision = #mp.precision<f16>
// TCO: linalg.add {mp.class = #mp.class<infer>, mp.precision = #mp.precision<f32>}
// TIAD-LABEL: func.func @basic
// TIAD: linalg.add {mp.class = #mp.class<infer>, mp.precision = #mp.precision<f32>}
// NOMM-LABEL: func.func @basic
// NOMM-NOT: f16
// NOMM: return
// BOUNDARY-LABEL: func.func @basic
// BOUNDARY-SAME: attributes {mp.signature_precision = #mp.precision<bf16>}
// LOWACC-LABEL: func.func @basic
// LOWACC: linalg.matmul {mp.accumulator = #mp.precision<f16>, mp.class = #mp.class<allow>, mp.precision = #mp.precision<f16>}
// LOWACC: linalg.exp {mp.class = #mp.class<deny>, mp.precision = #mp.precision<f32>}
// ADDDENY-LABEL: func.func @basic
// ADDDENY: linalg.add {mp.class = #mp.class<deny>, mp.precision = #mp.precision<f32>}
func.func @basic(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %e = tensor.empty() : tensor<8x8xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %1 = linalg.add ins(%0, %a : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %2 = linalg.matmul ins(%1, %b : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %3 = linalg.exp ins(%2 : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %4 = linalg.add ins(%3, %a : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %4 : tensor<8x8xf32>
}

// -----

// linalg.generic is classified from its indexing maps and body.
#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
// CHECK-LABEL: func.func @generic_kinds
// CHECK: linalg.generic {{.*}}mp.class = #mp.class<allow>, mp.precision = #mp.precision<f16>}
// CHECK: linalg.generic {{.*}}mp.class = #mp.class<deny>, mp.precision = #mp.precision<f32>}
// CHECK: arith.addf
// CHECK: linalg.generic {{.*}}mp.class = #mp.class<deny>, mp.precision = #mp.precision<f32>}
// CHECK: math.tanh
// CHECK: math.exp
// CHECK: linalg.generic {{.*}}mp.class = #mp.class<clear>, mp.precision = #mp.precision<f32>}
// CHECK: arith.maximumf
func.func @generic_kinds(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>, %r: tensor<4xf32>) -> (tensor<4x16xf32>, tensor<4xf32>, tensor<4x16xf32>, tensor<4xf32>) {
  %0 = linalg.generic {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>) {
    ^bb0(%x: f32, %y: f32, %acc: f32):
      %m = arith.mulf %x, %y : f32
      %s = arith.addf %acc, %m : f32
      linalg.yield %s : f32
  } -> tensor<4x16xf32>
  %1 = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%c : tensor<4x16xf32>) outs(%r : tensor<4xf32>) {
    ^bb0(%x: f32, %acc: f32):
      %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32
  } -> tensor<4xf32>
  %2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c : tensor<4x16xf32>) outs(%c : tensor<4x16xf32>) {
    ^bb0(%x: f32, %o: f32):
      %t = math.tanh %x : f32
      %e = math.exp %t : f32
      linalg.yield %e : f32
  } -> tensor<4x16xf32>
  %3 = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%c : tensor<4x16xf32>) outs(%r : tensor<4xf32>) {
    ^bb0(%x: f32, %acc: f32):
      %s = arith.maximumf %x, %acc : f32
      linalg.yield %s : f32
  } -> tensor<4xf32>
  return %0, %1, %2, %3 : tensor<4x16xf32>, tensor<4xf32>, tensor<4x16xf32>, tensor<4xf32>
}

// -----

// Clear ops next to low ops go low (transpose of a weight feeding a matmul);
// ops in no list stay f32 without a class; f64 ops are left alone.
// CHECK-LABEL: func.func @clear_unknown_f64
// CHECK: linalg.transpose ins({{.*}}) {{.*}} {mp.class = #mp.class<clear>, mp.precision = #mp.precision<f16>}
// CHECK: linalg.matmul {mp.class = #mp.class<allow>, mp.precision = #mp.precision<f16>}
// CHECK: call @ext({{.*}}) {mp.precision = #mp.precision<f32>}
// CHECK: arith.addf %{{.*}}, %{{.*}} : tensor<4xf64>
// CHECK-NOT: mp.
// CHECK: return
func.func private @ext(tensor<4x4xf32>) -> tensor<4x4xf32>
func.func @clear_unknown_f64(%w: tensor<4x4xf32>, %x: tensor<4x4xf32>, %d: tensor<4xf64>) -> (tensor<4x4xf32>, tensor<4xf64>) {
  %e = tensor.empty() : tensor<4x4xf32>
  %t = linalg.transpose ins(%w : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) permutation = [1, 0]
  %0 = linalg.matmul ins(%x, %t : tensor<4x4xf32>, tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %1 = func.call @ext(%0) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %2 = arith.addf %d, %d : tensor<4xf64>
  return %1, %2 : tensor<4x4xf32>, tensor<4xf64>
}

// -----

// mp.override forces a precision on an op, and on every op of a function.
// CHECK-LABEL: func.func @override_op
// CHECK: linalg.matmul {mp.class = #mp.class<allow>, mp.override = #mp.precision<f32>, mp.precision = #mp.precision<f32>}
// CHECK: linalg.exp {mp.class = #mp.class<deny>, mp.override = #mp.precision<bf16>, mp.precision = #mp.precision<bf16>}
func.func @override_op(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %e = tensor.empty() : tensor<8x8xf32>
  %0 = linalg.matmul {mp.override = #mp.precision<f32>} ins(%a, %a : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %1 = linalg.exp {mp.override = #mp.precision<bf16>} ins(%0 : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}
// CHECK-LABEL: func.func @override_function
// CHECK: linalg.matmul {mp.class = #mp.class<allow>, mp.precision = #mp.precision<f32>}
func.func @override_function(%a: tensor<8x8xf32>) -> tensor<8x8xf32> attributes {mp.override = #mp.precision<f32>} {
  %e = tensor.empty() : tensor<8x8xf32>
  %0 = linalg.matmul ins(%a, %a : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

// A value carried by scf.for gets one precision: low when the loop body
// yields it from a low op, f32 when it is produced in f32 inside the loop.
// CHECK-LABEL: func.func @loop
// CHECK: scf.for
// CHECK: linalg.matmul {mp.class = #mp.class<allow>, mp.precision = #mp.precision<f16>}
// CHECK: linalg.exp {mp.class = #mp.class<deny>, mp.precision = #mp.precision<f32>}
// CHECK: } {mp.precision = [#mp.precision<f16>, #mp.precision<f32>]}
func.func @loop(%w: tensor<8x8xf32>, %x: tensor<8x8xf32>, %n: index) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %e = tensor.empty() : tensor<8x8xf32>
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%h = %x, %s = %x) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
    %0 = linalg.matmul ins(%h, %w : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
    %1 = linalg.exp ins(%s : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
    scf.yield %0, %1 : tensor<8x8xf32>, tensor<8x8xf32>
  }
  return %r#0, %r#1 : tensor<8x8xf32>, tensor<8x8xf32>
}

// -----

// Any op with regions that implements RegionBranchOpInterface carries values
// the same way: affine.for (one slot per iter_arg) and affine.if (one per
// result) are not named anywhere in mp.
// CHECK-LABEL: func.func @affine_regions
// CHECK: affine.for
// CHECK: linalg.matmul {mp.class = #mp.class<allow>, mp.precision = #mp.precision<f16>}
// CHECK: linalg.exp {mp.class = #mp.class<deny>, mp.precision = #mp.precision<f32>}
// CHECK: } {mp.precision = [#mp.precision<f16>, #mp.precision<f32>]}
// CHECK: affine.if
// CHECK: linalg.matmul {mp.class = #mp.class<allow>, mp.precision = #mp.precision<f16>}
// CHECK: } else {
// CHECK: linalg.matmul {mp.class = #mp.class<allow>, mp.precision = #mp.precision<f16>}
// CHECK: } {mp.precision = [#mp.precision<f16>]}
func.func @affine_regions(%w: tensor<8x8xf32>, %x: tensor<8x8xf32>, %n: index) -> (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>) {
  %e = tensor.empty() : tensor<8x8xf32>
  %r:2 = affine.for %i = 0 to 4 iter_args(%h = %x, %s = %x) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
    %0 = linalg.matmul ins(%h, %w : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
    %1 = linalg.exp ins(%s : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
    affine.yield %0, %1 : tensor<8x8xf32>, tensor<8x8xf32>
  }
  %c = affine.if affine_set<(d0) : (d0 - 2 >= 0)>(%n) -> tensor<8x8xf32> {
    %2 = linalg.matmul ins(%x, %w : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
    affine.yield %2 : tensor<8x8xf32>
  } else {
    %3 = linalg.matmul ins(%w, %x : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
    affine.yield %3 : tensor<8x8xf32>
  }
  %4 = linalg.matmul ins(%c, %w : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %r#0, %r#1, %4 : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>
}

// -----

// A clear op whose result the function returns and a low op consumes stays
// f32 (as TensorFlow keeps fetched nodes): the function returns its exact
// value and one cast feeds the matmul. That holds after a low matmul too,
// whose f32 result would otherwise be rounded before it is returned. With
// low-precision-boundaries it goes low.
// CHECK-LABEL: func.func @returned_clear
// CHECK: linalg.transpose {{.*}}{mp.class = #mp.class<clear>, mp.precision = #mp.precision<f32>}
// CHECK: linalg.matmul {mp.class = #mp.class<allow>, mp.precision = #mp.precision<f16>}
// CHECK: linalg.transpose {{.*}}{mp.class = #mp.class<clear>, mp.precision = #mp.precision<f32>}
// BOUNDARY-LABEL: func.func @returned_clear
// BOUNDARY: linalg.transpose {{.*}}{mp.class = #mp.class<clear>, mp.precision = #mp.precision<bf16>}
func.func @returned_clear(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>) {
  %e = tensor.empty() : tensor<8x8xf32>
  %t = linalg.transpose ins(%a : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) permutation = [1, 0]
  %m = linalg.matmul ins(%t, %b : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %u = linalg.transpose ins(%m : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) permutation = [1, 0]
  %n = linalg.matmul ins(%u, %b : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %t, %u, %n : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>
}

// -----

// A conversion exact in the low type whose only consumers are low converts
// to it directly (i1 and i8 fit f16's 11-bit significand); a sitofp from i32
// does not fit and stays f32, as does an exact one with an f32 consumer.
// CHECK-LABEL: func.func @exact_conversions
// CHECK: arith.uitofp %{{.*}} {mp.class = #mp.class<infer>, mp.precision = #mp.precision<f16>}
// CHECK: arith.sitofp %{{.*}} {mp.class = #mp.class<infer>, mp.precision = #mp.precision<f16>}
// CHECK: arith.sitofp %{{.*}} {mp.class = #mp.class<infer>, mp.precision = #mp.precision<f32>}
// CHECK: arith.uitofp %{{.*}} {mp.class = #mp.class<infer>, mp.precision = #mp.precision<f32>}
// BF16-LABEL: func.func @exact_conversions
// BF16: arith.uitofp %{{.*}} {mp.class = #mp.class<infer>, mp.precision = #mp.precision<bf16>}
// BF16: arith.sitofp %{{.*}} {mp.class = #mp.class<infer>, mp.precision = #mp.precision<bf16>}
// TCO-LABEL: func.func @exact_conversions
// TCO: arith.uitofp %{{.*}} {mp.class = #mp.class<infer>, mp.precision = #mp.precision<f32>}
func.func @exact_conversions(%mask: tensor<8x8xi1>, %small: tensor<8x8xi8>, %big: tensor<8x8xi32>, %b: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>) {
  %e = tensor.empty() : tensor<8x8xf32>
  %0 = arith.uitofp %mask : tensor<8x8xi1> to tensor<8x8xf32>
  %1 = arith.sitofp %small : tensor<8x8xi8> to tensor<8x8xf32>
  %2 = arith.sitofp %big : tensor<8x8xi32> to tensor<8x8xf32>
  %3 = arith.uitofp %mask : tensor<8x8xi1> to tensor<8x8xf32>
  %m0 = linalg.matmul ins(%0, %b : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %m1 = linalg.matmul ins(%1, %b : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %m2 = linalg.matmul ins(%2, %b : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %m3 = linalg.matmul ins(%3, %b : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %m0, %m1, %m2, %3 : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>
}

// -----

// An mp.accumulator left by an earlier run (of the bf16 policy) is dropped:
// the classifier owns it. Ops on unranked tensors keep f32 at every level
// (a cast needs a ranked shape).
// CHECK-LABEL: func.func @stale_and_unranked
// CHECK: linalg.matmul {mp.class = #mp.class<allow>, mp.precision = #mp.precision<f16>}
// CHECK: math.tanh %{{[a-z0-9]+}} : tensor<*xf32>
// LOWACC-LABEL: func.func @stale_and_unranked
// LOWACC: linalg.matmul {mp.accumulator = #mp.precision<f16>,
// UFA-LABEL: func.func @stale_and_unranked
// UFA: math.tanh %{{[a-z0-9]+}} : tensor<*xf32>
// UFA-NEXT: arith.mulf %{{[a-z0-9]+}}, %{{[a-z0-9]+}} : tensor<*xf32>
func.func @stale_and_unranked(%a: tensor<8x8xf32>, %c: tensor<8x8xf32>, %u: tensor<*xf32>) -> (tensor<8x8xf32>, tensor<*xf32>) {
  %0 = linalg.matmul {mp.accumulator = #mp.precision<bf16>} ins(%a, %a : tensor<8x8xf32>, tensor<8x8xf32>) outs(%c : tensor<8x8xf32>) -> tensor<8x8xf32>
  %1 = math.tanh %u : tensor<*xf32>
  %2 = arith.mulf %1, %1 : tensor<*xf32>
  return %0, %2 : tensor<8x8xf32>, tensor<*xf32>
}

// -----

// Cases of TensorFlow's grappler test (auto_mixed_precision_test.cc), node by
// node: Relu is arith.maximumf with 0 (clear), Exp math.exp (deny), Sqrt
// math.sqrt (infer), MatMul linalg.matmul (allow); TF's second deny op and
// its Log-as-infer become math.exp and math.sqrt. "Simple": all agree but
// clr3, low in TF, f32 in mp on purpose (a clear op without a low consumer
// goes back to f32; docs/Classification.md).
// CHECK-LABEL: func.func @tf_simple
// CHECK: math.exp {{.*}}mp.precision = #mp.precision<f32>}
// CHECK-NEXT: arith.maximumf {{.*}}mp.precision = #mp.precision<f32>}
// CHECK-NEXT: math.sqrt {{.*}}mp.precision = #mp.precision<f32>}
// CHECK-NEXT: arith.maximumf {{.*}}mp.precision = #mp.precision<f16>}
// CHECK-NEXT: linalg.matmul {{.*}}mp.precision = #mp.precision<f16>}
// CHECK-NEXT: arith.maximumf {{.*}}mp.precision = #mp.precision<f32>}
// CHECK-NEXT: math.sqrt {{.*}}mp.precision = #mp.precision<f32>}
// CHECK-NEXT: arith.maximumf {{.*}}mp.precision = #mp.precision<f32>}
// CHECK-NEXT: math.exp {{.*}}mp.precision = #mp.precision<f32>}
// CHECK-NEXT: arith.maximumf {{.*}}mp.precision = #mp.precision<f32>}
func.func @tf_simple(%x: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %zero = arith.constant dense<0.0> : tensor<32x32xf32>
  %e = tensor.empty() : tensor<32x32xf32>
  %deny1 = math.exp %x : tensor<32x32xf32>
  %clr1 = arith.maximumf %deny1, %zero : tensor<32x32xf32>
  %infer1 = math.sqrt %clr1 : tensor<32x32xf32>
  %clr2 = arith.maximumf %infer1, %zero : tensor<32x32xf32>
  %allow1 = linalg.matmul ins(%clr2, %clr2 : tensor<32x32xf32>, tensor<32x32xf32>) outs(%e : tensor<32x32xf32>) -> tensor<32x32xf32>
  %clr3 = arith.maximumf %allow1, %zero : tensor<32x32xf32>
  %infer2 = math.sqrt %clr3 : tensor<32x32xf32>
  %clr4 = arith.maximumf %infer2, %zero : tensor<32x32xf32>
  %deny2 = math.exp %clr4 : tensor<32x32xf32>
  %clr5 = arith.maximumf %deny2, %zero : tensor<32x32xf32>
  return %clr5 : tensor<32x32xf32>
}

// -----

// TF's "PreserveFetches": fetched nodes stay f32. mp agrees on every node
// but allow1, which goes low because a low matmul keeps its f32 result: the
// returned value is not rounded either way.
// CHECK-LABEL: func.func @tf_preserve_fetches
// CHECK: linalg.matmul {{.*}}mp.precision = #mp.precision<f16>}
// CHECK-NEXT: arith.maximumf {{.*}}mp.precision = #mp.precision<f32>}
// CHECK-NEXT: math.sqrt {{.*}}mp.precision = #mp.precision<f32>}
// CHECK-NEXT: math.exp {{.*}}mp.precision = #mp.precision<f32>}
// CHECK-NEXT: arith.maximumf {{.*}}mp.precision = #mp.precision<f32>}
// CHECK-NEXT: linalg.matmul {{.*}}mp.precision = #mp.precision<f16>}
// CHECK-NEXT: arith.maximumf {{.*}}mp.precision = #mp.precision<f32>}
// CHECK-NEXT: math.exp {{.*}}mp.precision = #mp.precision<f32>}
// CHECK-NEXT: arith.maximumf {{.*}}mp.precision = #mp.precision<f32>}
func.func @tf_preserve_fetches(%x: tensor<32x32xf32>) -> (tensor<32x32xf32>, tensor<32x32xf32>, tensor<32x32xf32>, tensor<32x32xf32>) {
  %zero = arith.constant dense<0.0> : tensor<32x32xf32>
  %e = tensor.empty() : tensor<32x32xf32>
  %allow1 = linalg.matmul ins(%x, %x : tensor<32x32xf32>, tensor<32x32xf32>) outs(%e : tensor<32x32xf32>) -> tensor<32x32xf32>
  %clr1 = arith.maximumf %allow1, %zero : tensor<32x32xf32>
  %infer1 = math.sqrt %clr1 : tensor<32x32xf32>
  %deny1 = math.exp %infer1 : tensor<32x32xf32>
  %clr2 = arith.maximumf %deny1, %zero : tensor<32x32xf32>
  %allow2 = linalg.matmul ins(%clr2, %clr2 : tensor<32x32xf32>, tensor<32x32xf32>) outs(%e : tensor<32x32xf32>) -> tensor<32x32xf32>
  %clr3 = arith.maximumf %allow2, %zero : tensor<32x32xf32>
  %deny2 = math.exp %clr3 : tensor<32x32xf32>
  %clr4 = arith.maximumf %deny2, %zero : tensor<32x32xf32>
  return %allow1, %clr2, %clr3, %clr4 : tensor<32x32xf32>, tensor<32x32xf32>, tensor<32x32xf32>, tensor<32x32xf32>
}

// -----

// Scalar arithmetic follows the same rules.
// CHECK-LABEL: func.func @scalars
// CHECK: math.exp %{{.*}} {mp.class = #mp.class<deny>, mp.precision = #mp.precision<f32>}
// CHECK: arith.mulf %{{.*}} {mp.class = #mp.class<infer>, mp.precision = #mp.precision<f32>}
func.func @scalars(%a: f32) -> f32 {
  %0 = math.exp %a : f32
  %1 = arith.mulf %0, %a : f32
  return %1 : f32
}

// -----

// scf.while: the `before` and `after` values are carried slots; an scf.if
// that returns exp(x) in one branch stays f32 (going low would only round
// the f32 result).
// CHECK-LABEL: func.func @while_and_if
// CHECK: scf.while
// CHECK: linalg.matmul {mp.class = #mp.class<allow>, mp.precision = #mp.precision<f16>}
// CHECK: linalg.tanh {mp.class = #mp.class<infer>, mp.precision = #mp.precision<f16>}
// CHECK: arith.subf %{{.*}} {mp.class = #mp.class<infer>, mp.precision = #mp.precision<f32>}
// CHECK: } attributes {mp.precision = [#mp.precision<f16>, #mp.precision<f32>, #mp.precision<f16>, #mp.precision<f32>]}
// CHECK: scf.if
// CHECK: } {mp.precision = [#mp.precision<f32>]}
func.func @while_and_if(%w: tensor<8x8xf32>, %x: tensor<8x8xf32>, %lim: f32) -> tensor<8x8xf32> {
  %e = tensor.empty() : tensor<8x8xf32>
  %r:2 = scf.while (%h = %x, %n = %lim) : (tensor<8x8xf32>, f32) -> (tensor<8x8xf32>, f32) {
    %zero = arith.constant 0.0 : f32
    %c = arith.cmpf ogt, %n, %zero : f32
    scf.condition(%c) %h, %n : tensor<8x8xf32>, f32
  } do {
  ^bb0(%h2: tensor<8x8xf32>, %n2: f32):
    %0 = linalg.matmul ins(%h2, %w : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
    %t = linalg.tanh ins(%0 : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
    %1 = linalg.matmul ins(%t, %w : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
    %one = arith.constant 1.0 : f32
    %m = arith.subf %n2, %one : f32
    scf.yield %1, %m : tensor<8x8xf32>, f32
  }
  %cz = arith.constant 0.0 : f32
  %c0 = arith.cmpf olt, %r#1, %cz : f32
  %y = scf.if %c0 -> tensor<8x8xf32> {
    scf.yield %r#0 : tensor<8x8xf32>
  } else {
    %z = linalg.exp ins(%r#0 : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
    scf.yield %z : tensor<8x8xf32>
  }
  return %y : tensor<8x8xf32>
}

// -----

// An op whose definition fixes f32 operands keeps f32 even when a policy
// allows it (found by the pipeline fuzzer: insert-casts gave mp.update_scale
// an f16 scale, invalid IR).
// CHECK-LABEL: func.func @fixed_f32_types
// FIXED-LABEL: func.func @fixed_f32_types
// FIXED: mp.update_scale %{{.*}}, %{{.*}}, %{{.*}} {mp.class = #mp.class<allow>, mp.precision = #mp.precision<f32>}
func.func @fixed_f32_types(%scale: tensor<f32>, %tracker: tensor<i32>, %inf: tensor<i1>) -> (tensor<f32>, tensor<i32>) {
  %s, %t = mp.update_scale %scale, %tracker, %inf
  return %s, %t : tensor<f32>, tensor<i32>
}

// -----

// A call keeps its callee's types whatever the lists say (found by the
// pipeline fuzzer: insert-casts gave a call bf16 operands of an f32 callee);
// mp.signature_precision on the callee is what changes them.
// CHECK-LABEL: func.func @call_keeps_callee_types
// FIXED-LABEL: func.func @call_keeps_callee_types
// FIXED: call @callee(%{{.*}}) {mp.class = #mp.class<allow>, mp.precision = #mp.precision<f32>}
func.func private @callee(tensor<4xf32>) -> tensor<4xf32>
func.func @call_keeps_callee_types(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = func.call @callee(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
