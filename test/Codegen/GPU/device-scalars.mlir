// RUN: mp-opt %s --split-input-file --mp-gpu-device-scalars --mlir-print-local-scope | FileCheck %s

// The step's skip: the update is computed, then each parameter is chosen
// elementwise by the flag (read by the kernel, not extracted on the host).
// CHECK-LABEL: func.func @skip
// CHECK-SAME: (%[[P:.*]]: tensor<10xf32>, %[[G:.*]]: tensor<10xf32>, %[[FLAG:.*]]: tensor<i1>)
// CHECK-NOT: tensor.extract
// CHECK-NOT: scf.if
// CHECK: %[[NEW:.*]] = linalg.generic {{.*}} ins(%[[P]], %[[G]] : tensor<10xf32>, tensor<10xf32>)
// CHECK: arith.subf
// CHECK: %[[SEL:.*]] = linalg.generic {indexing_maps = [affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%[[FLAG]], %[[P]], %[[NEW]] : tensor<i1>, tensor<10xf32>, tensor<10xf32>)
// CHECK-NEXT: ^bb0(%[[C:.*]]: i1, %[[OLD:.*]]: f32, %[[UPD:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[S:.*]] = arith.select %[[C]], %[[OLD]], %[[UPD]] : f32
// CHECK-NEXT: linalg.yield %[[S]]
// CHECK: return %[[SEL]], %[[FLAG]]
func.func @skip(%p: tensor<10xf32>, %g: tensor<10xf32>, %flag: tensor<i1>) -> (tensor<10xf32>, tensor<i1>) {
  %skip = tensor.extract %flag[] : tensor<i1>
  %r = scf.if %skip -> (tensor<10xf32>) {
    scf.yield %p : tensor<10xf32>
  } else {
    %e = tensor.empty() : tensor<10xf32>
    %u = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%p, %g : tensor<10xf32>, tensor<10xf32>) outs(%e : tensor<10xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %d = arith.subf %a, %b : f32
      linalg.yield %d : f32
    } -> tensor<10xf32>
    scf.yield %u : tensor<10xf32>
  }
  return %r, %flag : tensor<10xf32>, tensor<i1>
}

// -----

// The loss-scale update: scalars out of the scale, the tracker and the flag,
// computed and put back in 0-d tensors, become 0-d linalg.generics reading
// those tensors.
// CHECK-LABEL: func.func @scale_update
// CHECK-SAME: (%[[SCALE:.*]]: tensor<f32>, %[[TRACK:.*]]: tensor<i32>, %[[FLAG:.*]]: tensor<i1>)
// CHECK-NOT: tensor.extract
// CHECK-NOT: tensor.from_elements
// CHECK: %[[NS:.*]] = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []} ins(%[[FLAG]], %[[SCALE]] : tensor<i1>, tensor<f32>)
// CHECK-NEXT: ^bb0(%[[F:.*]]: i1, %[[S:.*]]: f32, %{{.*}}: f32):
// CHECK: %[[H:.*]] = arith.mulf %[[S]], %cst : f32
// CHECK: %[[R:.*]] = arith.select %[[F]], %[[H]], %[[S]] : f32
// CHECK: linalg.yield %[[R]] : f32
// CHECK: %[[NT:.*]] = linalg.generic {{.*}} ins(%[[FLAG]], %[[TRACK]] : tensor<i1>, tensor<i32>)
// CHECK: arith.addi
// CHECK: arith.select
// CHECK: return %[[NS]], %[[NT]]
func.func @scale_update(%scale: tensor<f32>, %tracker: tensor<i32>, %flag: tensor<i1>) -> (tensor<f32>, tensor<i32>) {
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1 : i32
  %zero = arith.constant 0 : i32
  %s = tensor.extract %scale[] : tensor<f32>
  %t = tensor.extract %tracker[] : tensor<i32>
  %f = tensor.extract %flag[] : tensor<i1>
  %h = arith.mulf %s, %half : f32
  %ns = arith.select %f, %h, %s : f32
  %t1 = arith.addi %t, %one : i32
  %nt = arith.select %f, %zero, %t1 : i32
  %rs = tensor.from_elements %ns : tensor<f32>
  %rt = tensor.from_elements %nt : tensor<i32>
  return %rs, %rt : tensor<f32>, tensor<i32>
}

// -----

// A scalar computed from the loss scale and used in a kernel's body (the
// scaled gradient seed): the scale becomes an operand broadcast to every
// iteration, the product is computed in the body.
// CHECK-LABEL: func.func @captured
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>, %[[SCALE:.*]]: tensor<f32>)
// CHECK-NOT: tensor.extract
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%[[X]], %[[SCALE]] : tensor<4xf32>, tensor<f32>)
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f32, %[[S:.*]]: f32, %{{.*}}: f32):
// CHECK: %[[K:.*]] = arith.mulf %[[S]], %cst : f32
// CHECK: %[[Y:.*]] = arith.mulf %[[IN]], %[[K]] : f32
// CHECK: linalg.yield %[[Y]]
func.func @captured(%x: tensor<4xf32>, %scale: tensor<f32>) -> tensor<4xf32> {
  %two = arith.constant 2.0 : f32
  %s = tensor.extract %scale[] : tensor<f32>
  %k = arith.mulf %s, %two : f32
  %e = tensor.empty() : tensor<4xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %k : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// The element itself used in a kernel's body (the gradient seed read
// without arithmetic; the pass looped forever on it, adding the tensor as
// an operand again and again) and copied into a new 0-d tensor.
// CHECK-LABEL: func.func @read
// CHECK-SAME: (%[[B:.*]]: tensor<4xf32>, %[[SEED:.*]]: tensor<f32>)
// CHECK-NOT: tensor.extract
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%[[SEED]] : tensor<f32>) outs(%[[B]] : tensor<4xf32>)
// CHECK-NEXT: ^bb0(%[[S:.*]]: f32, %[[O:.*]]: f32):
// CHECK-NEXT: %[[M:.*]] = arith.mulf %[[O]], %[[S]] : f32
// CHECK-NEXT: linalg.yield %[[M]]
// CHECK: linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []} ins(%[[SEED]] : tensor<f32>)
// CHECK-NEXT: ^bb0(%[[S2:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: linalg.yield %[[S2]]
func.func @read(%b: tensor<4xf32>, %seed: tensor<f32>) -> (tensor<4xf32>, tensor<f32>) {
  %s = tensor.extract %seed[] : tensor<f32>
  %g = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>], iterator_types = ["parallel"]} outs(%b : tensor<4xf32>) {
  ^bb0(%o: f32):
    %m = arith.mulf %o, %s : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  %t = tensor.from_elements %s : tensor<f32>
  return %g, %t : tensor<4xf32>, tensor<f32>
}

// -----

// Left alone: a condition that is not a 0-d tensor's element, a branch with
// a side effect, a scalar from a function argument, a dynamic result.
// CHECK-LABEL: func.func @left_alone
// CHECK: scf.if %arg2
// CHECK: scf.if
// CHECK: func.call @effect
// CHECK: tensor.from_elements %arg3
// CHECK: scf.if
// CHECK-NOT: linalg.generic
func.func private @effect()
func.func @left_alone(%p: tensor<10xf32>, %q: tensor<10xf32>, %c: i1, %v: f32, %flag: tensor<i1>, %d: tensor<?xf32>, %d2: tensor<?xf32>) -> (tensor<10xf32>, tensor<10xf32>, tensor<f32>, tensor<?xf32>) {
  %r = scf.if %c -> (tensor<10xf32>) {
    scf.yield %p : tensor<10xf32>
  } else {
    scf.yield %q : tensor<10xf32>
  }
  %f = tensor.extract %flag[] : tensor<i1>
  %r2 = scf.if %f -> (tensor<10xf32>) {
    scf.yield %p : tensor<10xf32>
  } else {
    func.call @effect() : () -> ()
    scf.yield %q : tensor<10xf32>
  }
  %t = tensor.from_elements %v : tensor<f32>
  %r3 = scf.if %f -> (tensor<?xf32>) {
    scf.yield %d : tensor<?xf32>
  } else {
    scf.yield %d2 : tensor<?xf32>
  }
  return %r, %r2, %t, %r3 : tensor<10xf32>, tensor<10xf32>, tensor<f32>, tensor<?xf32>
}
