// RUN: mp-opt %s --mp-make-train-step="lr=0.1" | FileCheck %s --check-prefix=SGD
// RUN: mp-opt %s --mp-make-train-step="optimizer=momentum momentum=0.8 nesterov=true" | FileCheck %s --check-prefix=MOM
// RUN: mp-opt %s --mp-loss-scaling --mp-make-train-step="optimizer=adamw clip-norm=1.5" | FileCheck %s --check-prefix=ADAMW
// RUN: mp-opt %s --mp-make-train-step="optimizer=adam weight-decay=0.5" | FileCheck %s --check-prefix=ADAM
// RUN: mp-opt %s --mp-loss-scaling --mp-make-train-step="accumulate=4" | FileCheck %s --check-prefix=ACC

// With plain sgd the step takes the gradient function's arguments, calls it, and
// returns p - lr * g for each trained parameter, then the loss and outputs.
// SGD-LABEL: func.func @grad_step(
// SGD-SAME: %[[W:[^:]+]]: tensor<4x3xf32> {mp.param}, %[[B:[^:]+]]: tensor<3xf32> {mp.param}, %[[X:[^:]+]]: tensor<2x4xf32> {mp.input}, %[[S:[^:]+]]: tensor<f32> {mp.grad_seed})
// SGD-SAME: -> (tensor<4x3xf32> {mp.updates = 0 : i64}, tensor<3xf32> {mp.updates = 1 : i64}, tensor<f32> {mp.loss}, tensor<2x3xf32> {mp.output})
// SGD: %[[R:.*]]:4 = call @grad(%[[W]], %[[B]], %[[X]], %[[S]])
// SGD-NOT: scf.if
// SGD: %[[NW:.*]] = linalg.generic {{.*}} ins(%[[W]], %[[R]]#1 :
// SGD: ^bb0(%[[P:[^:]+]]: f32, %[[G:[^:]+]]: f32, %{{.*}}: f32):
// SGD: %[[LR:.*]] = arith.constant -1.000000e-01 : f32
// SGD: %[[STEP:.*]] = arith.mulf %[[G]], %[[LR]] : f32
// SGD: %[[NEW:.*]] = arith.addf %[[P]], %[[STEP]] : f32
// SGD: linalg.yield %[[NEW]] : f32
// SGD: %[[NB:.*]] = linalg.generic {{.*}} ins(%[[B]], %[[R]]#2 :
// SGD: return %[[NW]], %[[NB]], %[[R]]#0, %[[R]]#3

// With momentum, one buffer per parameter, buf = m * buf + g; Nesterov steps
// along g + m * buf.
// MOM-LABEL: func.func @grad_step(
// MOM-SAME: %[[MW:[^:]+]]: tensor<4x3xf32> {mp.state = 0.000000e+00 : f32}, %[[MB:[^:]+]]: tensor<3xf32> {mp.state = 0.000000e+00 : f32})
// MOM-SAME: -> (tensor<4x3xf32> {mp.updates = 0 : i64}, tensor<3xf32> {mp.updates = 1 : i64}, tensor<4x3xf32> {mp.updates = 4 : i64}, tensor<3xf32> {mp.updates = 5 : i64}, tensor<f32> {mp.loss}, tensor<2x3xf32> {mp.output})
// MOM: %[[U:.*]]:2 = linalg.generic {{.*}} ins(%{{.*}}, %{{.*}}, %[[MW]] :
// MOM: ^bb0(%[[P:[^:]+]]: f32, %[[G:[^:]+]]: f32, %[[BUF:[^:]+]]: f32,
// MOM: %[[M:.*]] = arith.constant 8.000000e-01 : f32
// MOM: %[[MB2:.*]] = arith.mulf %[[BUF]], %[[M]] : f32
// MOM: %[[NBUF:.*]] = arith.addf %[[MB2]], %[[G]] : f32
// MOM: %[[MN:.*]] = arith.mulf %[[NBUF]], %{{.*}} : f32
// MOM: %[[NEST:.*]] = arith.addf %[[G]], %[[MN]] : f32
// MOM: arith.mulf %[[NEST]], %{{.*}} : f32
// MOM: linalg.yield %{{.*}}, %[[NBUF]] : f32, f32

// AdamW after loss scaling. On overflow everything is returned unchanged;
// otherwise clip by the global norm, count the step, decay, and update.
// ADAMW-LABEL: func.func @grad_step(
// ADAMW-SAME: %[[W:[^:]+]]: tensor<4x3xf32> {mp.param}, %[[B:[^:]+]]: tensor<3xf32> {mp.param}
// ADAMW-SAME: %{{.*}}: tensor<f32> {mp.loss_scale, mp.state = 6.553600e+04 : f32}, %{{.*}}: tensor<i32> {mp.state = 0 : i32},
// ADAMW-SAME: %[[M0:[^:]+]]: tensor<4x3xf32> {mp.state = 0.000000e+00 : f32}, %[[M1:[^:]+]]: tensor<3xf32> {mp.state = 0.000000e+00 : f32}, %[[V0:[^:]+]]: tensor<4x3xf32> {mp.state = 0.000000e+00 : f32}, %[[V1:[^:]+]]: tensor<3xf32> {mp.state = 0.000000e+00 : f32}, %[[T:[^:]+]]: tensor<f32> {mp.state = 0.000000e+00 : f32})
// ADAMW-SAME: tensor<f32> {mp.loss}, tensor<2x3xf32> {mp.output}, tensor<i1> {mp.found_inf}, tensor<f32> {mp.updates = 4 : i64}, tensor<i32> {mp.updates = 5 : i64})
// ADAMW: %[[R:.*]]:7 = call @grad(
// ADAMW: %[[SKIP:.*]] = tensor.extract %[[R]]#4[]
// ADAMW: %[[NEW:.*]]:7 = scf.if %[[SKIP]]
// ADAMW-NEXT: scf.yield %[[W]], %[[B]], %[[M0]], %[[M1]], %[[V0]], %[[V1]], %[[T]]
// ADAMW: } else {
// ADAMW: math.sqrt
// ADAMW: %[[COEF:.*]] = arith.minimumf
// ADAMW: math.powf
// ADAMW: ^bb0(%[[P:[^:]+]]: f32, %[[G:[^:]+]]: f32,
// ADAMW: arith.mulf %[[G]], %[[COEF]] : f32
// ADAMW: arith.constant 0.99998998
// ADAMW: return %[[NEW]]#0, %[[NEW]]#1, %[[NEW]]#2, %[[NEW]]#3, %[[NEW]]#4, %[[NEW]]#5, %[[NEW]]#6, %[[R]]#0, %[[R]]#3, %[[R]]#4, %[[R]]#5, %[[R]]#6

// Adam adds L2 weight decay to the gradient.
// ADAM-LABEL: func.func @grad_step(
// ADAM: ^bb0(%[[P:[^:]+]]: f32, %[[G:[^:]+]]: f32,
// ADAM: %[[WD:.*]] = arith.constant 5.000000e-01 : f32
// ADAM: %[[D:.*]] = arith.mulf %[[P]], %[[WD]] : f32
// ADAM: arith.addf %[[G]], %[[D]] : f32
// Gradient accumulation: inputs gain a leading micro-batch dimension; the
// loop sums loss and gradients, ORs the flags; means and one scale update
// follow.
// ACC-LABEL: func.func @grad_step(
// ACC-SAME: %[[X:[^:]+]]: tensor<4x2x4xf32> {mp.input}, %[[S:[^:]+]]: tensor<f32> {mp.grad_seed}, %[[SCALE:[^:]+]]: tensor<f32> {mp.loss_scale, mp.state = 6.553600e+04 : f32}, %[[T:[^:]+]]: tensor<i32> {mp.state = 0 : i32})
// ACC: %[[SUMS:.*]]:5 = scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(
// ACC: %[[MICRO:.*]] = tensor.extract_slice %[[X]][%[[K]], 0, 0] [1, 2, 4] [1, 1, 1] : tensor<4x2x4xf32> to tensor<2x4xf32>
// ACC: call @grad(%{{.*}}, %{{.*}}, %[[MICRO]], %[[S]], %[[SCALE]], %[[T]])
// ACC: arith.ori
// ACC: scf.yield
// ACC: arith.constant 2.500000e-01 : f32
// ACC: %[[NS:.*]], %[[NT:.*]] = mp.update_scale %[[SCALE]], %[[T]], %[[SUMS]]#4
// ACC: scf.if
// ACC: return {{.*}}, %[[NS]], %[[NT]] :
func.func @grad(%w: tensor<4x3xf32> {mp.param}, %b: tensor<3xf32> {mp.param},
                %x: tensor<2x4xf32> {mp.input}, %seed: tensor<f32> {mp.grad_seed})
    -> (tensor<f32> {mp.loss}, tensor<4x3xf32> {mp.grad_of = 0 : i64},
        tensor<3xf32> {mp.grad_of = 1 : i64}, tensor<2x3xf32> {mp.output}) {
  %l = arith.constant dense<1.0> : tensor<f32>
  %o = tensor.empty() : tensor<2x3xf32>
  return %l, %w, %b, %o : tensor<f32>, tensor<4x3xf32>, tensor<3xf32>, tensor<2x3xf32>
}

// A function without training roles (a forward graph, a helper) is left
// alone: no step is made for it, its body is not touched.
// RUN: mp-opt %s --mp-make-train-step | FileCheck %s --check-prefix=ALONE
// ALONE-LABEL: func.func @forward(%{{.*}}: tensor<2x4xf32>, %{{.*}}: tensor<4x3xf32>) -> tensor<2x3xf32> {
// ALONE-NEXT: %[[E:.*]] = tensor.empty() : tensor<2x3xf32>
// ALONE-NEXT: %[[M:.*]] = linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<2x4xf32>, tensor<4x3xf32>) outs(%[[E]] : tensor<2x3xf32>) -> tensor<2x3xf32>
// ALONE-NEXT: return %[[M]] : tensor<2x3xf32>
// ALONE-NOT: @forward_step
func.func @forward(%x: tensor<2x4xf32>, %w: tensor<4x3xf32>) -> tensor<2x3xf32> {
  %e = tensor.empty() : tensor<2x3xf32>
  %m = linalg.matmul ins(%x, %w : tensor<2x4xf32>, tensor<4x3xf32>) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  return %m : tensor<2x3xf32>
}
