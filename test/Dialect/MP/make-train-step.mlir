// RUN: mp-opt %s --mp-make-train-step="lr=0.1" | FileCheck %s --check-prefix=SGD
// RUN: mp-opt %s --mp-make-train-step="optimizer=momentum momentum=0.8 nesterov=true" | FileCheck %s --check-prefix=MOM
// RUN: mp-opt %s --mp-loss-scaling --mp-make-train-step="optimizer=adamw clip-norm=1.5" | FileCheck %s --check-prefix=ADAMW
// RUN: mp-opt %s --mp-make-train-step="optimizer=adam weight-decay=0.5" | FileCheck %s --check-prefix=ADAM
// RUN: mp-opt %s --mp-loss-scaling --mp-make-train-step="accumulate=4" | FileCheck %s --check-prefix=ACC
// RUN: mp-opt %s --mp-loss-scaling --mp-make-train-step="data-parallel=true" | FileCheck %s --check-prefix=DP
// RUN: mp-opt %s --mp-loss-scaling --mp-make-train-step="data-parallel=true allreduce-type=f16" | FileCheck %s --check-prefix=DPF16
// RUN: mp-opt %s --mp-make-train-step="data-parallel=true allreduce-type=bf16" | FileCheck %s --check-prefix=DPBF16

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
// Data parallel: gradients and loss are averaged over the ranks (summed in
// one all-reduce of their concatenation, as DDP's buckets, then times
// 1 / world size), the overflow flag ORed (max of i1); the loss scale is
// updated once, with the flag of all ranks, before the skip.
// DP-LABEL: func.func @grad_step(
// DP-SAME: %[[SCALE:[^:]+]]: tensor<f32> {mp.loss_scale, mp.state = 6.553600e+04 : f32}, %[[T:[^:]+]]: tensor<i32> {mp.state = 0 : i32})
// DP-NEXT: %[[N:.*]] = mp.world_size : i32
// DP: %[[R:.*]]:7 = call @grad(
// DP: %[[NF:.*]] = arith.sitofp %[[N]] : i32 to f32
// DP: %[[INV:.*]] = arith.divf %{{.*}}, %[[NF]] : f32
// DP: %[[FW:.*]] = tensor.collapse_shape %[[R]]#1 {{\[}}[0, 1]] : tensor<4x3xf32> into tensor<12xf32>
// DP: %[[FL:.*]] = tensor.expand_shape %[[R]]#0 [] output_shape [1] : tensor<f32> into tensor<1xf32>
// DP: %[[CAT:.*]] = tensor.concat dim(0) %[[FW]], %[[R]]#2, %[[FL]] : (tensor<12xf32>, tensor<3xf32>, tensor<1xf32>) -> tensor<16xf32>
// DP: %[[SUM:.*]] = mp.all_reduce sum %[[CAT]] : tensor<16xf32> -> tensor<16xf32>
// DP: %[[SW:.*]] = tensor.extract_slice %[[SUM]][0] [12] [1]
// DP: %[[SW2:.*]] = tensor.expand_shape %[[SW]] {{\[}}[0, 1]] output_shape [4, 3]
// DP: %[[SB:.*]] = tensor.extract_slice %[[SUM]][12] [3] [1]
// DP: %[[SL:.*]] = tensor.extract_slice %[[SUM]][15] [1] [1]
// DP: %[[SL2:.*]] = tensor.collapse_shape %[[SL]] [] : tensor<1xf32> into tensor<f32>
// DP: %[[GW:.*]] = linalg.generic {{.*}} ins(%[[SW2]] :
// DP: arith.mulf %{{.*}}, %[[INV]] : f32
// DP: linalg.generic {{.*}} ins(%[[SB]] :
// DP: %[[L:.*]] = linalg.generic {{.*}} ins(%[[SL2]] :
// DP: %[[F:.*]] = mp.all_reduce max %[[R]]#4 : tensor<i1> -> tensor<i1>
// DP: %[[NS:.*]], %[[NT:.*]] = mp.update_scale %[[SCALE]], %[[T]], %[[F]]
// DP: %[[SKIP:.*]] = tensor.extract %[[F]][]
// DP: scf.if %[[SKIP]]
// DP: linalg.generic {{.*}} ins(%{{.*}}, %[[GW]] :
// DP: return %{{.*}}, %{{.*}}, %[[L]], %[[R]]#3, %[[F]], %[[NS]], %[[NT]] :
// Compressed: trunc(g * scale / N) in f16, one all-reduce, then mp.unscale,
// whose finite check is ORed into the flag; the loss goes alone in f32.
// DPF16-LABEL: func.func @grad_step(
// DPF16-SAME: %[[SCALE:[^:]+]]: tensor<f32> {mp.loss_scale
// DPF16: %[[R:.*]]:7 = call @grad(
// DPF16: %[[INV:.*]] = arith.divf
// DPF16: %[[S:.*]] = tensor.extract %[[SCALE]][] : tensor<f32>
// DPF16: %[[FACTOR:.*]] = arith.mulf %[[S]], %[[INV]] : f32
// DPF16: %[[CW:.*]] = linalg.generic {{.*}} ins(%[[R]]#1 : tensor<4x3xf32>) outs(%{{.*}} : tensor<4x3xf16>)
// DPF16: %[[M:.*]] = arith.mulf %{{.*}}, %[[FACTOR]] : f32
// DPF16: arith.truncf %[[M]] : f32 to f16
// DPF16: %[[CB:.*]] = linalg.generic {{.*}} ins(%[[R]]#2 : tensor<3xf32>) outs(%{{.*}} : tensor<3xf16>)
// DPF16: %[[FW:.*]] = tensor.collapse_shape %[[CW]]
// DPF16: %[[CAT:.*]] = tensor.concat dim(0) %[[FW]], %[[CB]] : (tensor<12xf16>, tensor<3xf16>) -> tensor<15xf16>
// DPF16: %[[SUM:.*]] = mp.all_reduce sum %[[CAT]] : tensor<15xf16> -> tensor<15xf16>
// DPF16: %[[SW:.*]] = tensor.expand_shape
// DPF16: %[[SB:.*]] = tensor.extract_slice %[[SUM]][12] [3] [1]
// DPF16: %[[U:.*]]:2, %[[CHECK:.*]] = mp.unscale %[[SCALE]], %[[SW]], %[[SB]] : tensor<4x3xf16>, tensor<3xf16> -> tensor<4x3xf32>, tensor<3xf32>
// DPF16: mp.all_reduce sum %[[R]]#0 : tensor<f32> -> tensor<f32>
// DPF16: %[[F:.*]] = mp.all_reduce max %[[R]]#4 : tensor<i1> -> tensor<i1>
// DPF16: %[[ANY:.*]] = linalg.generic {{.*}} ins(%[[F]], %[[CHECK]] : tensor<i1>, tensor<i1>)
// DPF16: arith.ori
// DPF16: mp.update_scale %[[SCALE]], %{{.*}}, %[[ANY]]
// Without loss scaling, bf16 gradients are sent as g / N and widened back.
// DPBF16-LABEL: func.func @grad_step(
// DPBF16: %[[R:.*]]:4 = call @grad(
// DPBF16: linalg.generic {{.*}} ins(%[[R]]#1 : tensor<4x3xf32>) outs(%{{.*}} : tensor<4x3xbf16>)
// DPBF16: arith.truncf %{{.*}} : f32 to bf16
// DPBF16: %[[SUM:.*]] = mp.all_reduce sum %{{.*}} : tensor<15xbf16> -> tensor<15xbf16>
// DPBF16: %[[SW:.*]] = tensor.expand_shape
// DPBF16: linalg.generic {{.*}} ins(%[[SW]] : tensor<4x3xbf16>) outs(%{{.*}} : tensor<4x3xf32>)
// DPBF16: arith.extf %{{.*}} : bf16 to f32
// DPBF16-NOT: mp.all_reduce max
// DPBF16: return
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
