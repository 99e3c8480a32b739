// RUN: mp-opt %s --split-input-file --mp-update-state-in-place | FileCheck %s

// An SGD step: the parameter's update, computed by an elementwise op that
// reads it at the element it writes, goes into the parameter's buffer, also
// through the skip-on-overflow scf.if; the argument becomes writable. The
// gradient's argument, which nothing updates, stays read-only.
// CHECK-LABEL: func.func @sgd(
// CHECK-SAME: %[[P:.*]]: tensor<128xf32> {bufferization.writable = true, mp.param}
// CHECK-SAME: %[[G:.*]]: tensor<128xf32> {bufferization.writable = false}
// CHECK: scf.if
// CHECK:   scf.yield %[[P]]
// CHECK: } else {
// CHECK:   %[[NEW:.*]] = linalg.generic {{.*}} ins(%[[P]], %[[G]] : tensor<128xf32>, tensor<128xf32>) outs(%[[P]] : tensor<128xf32>)
// CHECK:   scf.yield %[[NEW]]
#id = affine_map<(d0) -> (d0)>
func.func @sgd(%p: tensor<128xf32> {mp.param, bufferization.writable = false}, %g: tensor<128xf32> {bufferization.writable = false}, %skip: i1) -> (tensor<128xf32> {mp.updates = 0 : i64}) {
  %r = scf.if %skip -> tensor<128xf32> {
    scf.yield %p : tensor<128xf32>
  } else {
    %e = tensor.empty() : tensor<128xf32>
    %new = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]} ins(%p, %g : tensor<128xf32>, tensor<128xf32>) outs(%e : tensor<128xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %d = arith.subf %a, %b : f32
      linalg.yield %d : f32
    } -> tensor<128xf32>
    scf.yield %new : tensor<128xf32>
  }
  return %r : tensor<128xf32>
}

// -----

// Left alone: an op that reads the state at another element (a reversal),
// one whose destination carries a value, one with a reduction loop, a
// result without mp.updates, and a private function.
// CHECK-LABEL: func.func @left_alone(
// CHECK-NOT: writable = true
// CHECK: return
#id = affine_map<(d0) -> (d0)>
#rev = affine_map<(d0) -> (127 - d0)>
func.func @left_alone(%p: tensor<128xf32> {bufferization.writable = false}, %q: tensor<128xf32> {bufferization.writable = false}, %r: tensor<128xf32> {bufferization.writable = false}, %s: tensor<128xf32> {bufferization.writable = false})
    -> (tensor<128xf32> {mp.updates = 0 : i64}, tensor<128xf32> {mp.updates = 1 : i64}, tensor<128xf32>) {
  %e = tensor.empty() : tensor<128xf32>
  %reversed = linalg.generic {indexing_maps = [#rev, #id], iterator_types = ["parallel"]} ins(%p : tensor<128xf32>) outs(%e : tensor<128xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<128xf32>
  %acc = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%q : tensor<128xf32>) outs(%r : tensor<128xf32>) {
  ^bb0(%a: f32, %o: f32):
    %d = arith.addf %a, %o : f32
    linalg.yield %d : f32
  } -> tensor<128xf32>
  %copy = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%s : tensor<128xf32>) outs(%e : tensor<128xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<128xf32>
  return %reversed, %acc, %copy : tensor<128xf32>, tensor<128xf32>, tensor<128xf32>
}
