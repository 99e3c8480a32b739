// RUN: mp-opt %s --split-input-file --mp-loss-scaling | FileCheck %s --check-prefix=DYN
// RUN: mp-opt %s --split-input-file --mp-loss-scaling="mode=static static-scale=1024" | FileCheck %s --check-prefix=STATIC
// RUN: mp-opt %s --split-input-file --mp-loss-scaling="mode=none" | FileCheck %s --check-prefix=NONE
// mode=auto follows the policy's loss_scaling: fp16 scales dynamically, bf16 does not.
// RUN: mp-opt %s --split-input-file --mp-loss-scaling="mode=auto policy=fp16" | FileCheck %s --check-prefix=DYN
// RUN: mp-opt %s --split-input-file --mp-loss-scaling="mode=auto policy=bf16" | FileCheck %s --check-prefix=NONE
// RUN: mp-opt %s --split-input-file --mp-loss-scaling="hysteresis=3 init-scale=256 growth-interval=100 min-scale=1 max-scale=16777216" | FileCheck %s --check-prefix=HYST

// The seed is scaled, the gradients unscaled (an f16 gradient widened only
// for the return is unscaled from f16), the flag and the scale state added.

// DYN-LABEL: func.func @grad(
// DYN-SAME: %[[W:[^:]+]]: tensor<4x3xf32> {mp.param}, %{{.*}}: tensor<4xf32> {mp.param}, %[[SEED:[^:]+]]: tensor<f32> {mp.grad_seed},
// DYN-SAME: %[[SCALE:[^:]+]]: tensor<f32> {mp.loss_scale, mp.state = 6.553600e+04 : f32}, %[[TRACK:[^:]+]]: tensor<i32> {mp.state = 0 : i32})
// DYN-SAME: -> (tensor<f32> {mp.loss}, tensor<4x3xf32> {mp.grad_of = 0 : i64}, tensor<4xf32> {mp.grad_of = 1 : i64},
// DYN-SAME: tensor<i1> {mp.found_inf}, tensor<f32> {mp.updates = 3 : i64}, tensor<i32> {mp.updates = 4 : i64})
// DYN: %[[S:.*]] = mp.scale_seed %[[SEED]], %[[SCALE]]
// DYN: tensor.extract %[[S]][]
// DYN: %[[G1:.*]] = linalg.generic
// DYN: %[[U:.*]]:2, %[[INF:.*]] = mp.unscale %[[SCALE]], %[[G0:[^,]+]], %[[G1]] : tensor<4x3xf16>, tensor<4xf32> -> tensor<4x3xf32>, tensor<4xf32>
// DYN: %[[NS:.*]], %[[NT:.*]] = mp.update_scale %[[SCALE]], %[[TRACK]], %[[INF]]{{$}}
// DYN: return %{{.*}}, %[[U]]#0, %[[U]]#1, %[[INF]], %[[NS]], %[[NT]]

// STATIC-LABEL: func.func @grad(
// STATIC-SAME: %{{.*}}: tensor<4x3xf32> {mp.param}, %{{.*}}: tensor<4xf32> {mp.param}, %[[SEED:[^:]+]]: tensor<f32> {mp.grad_seed})
// STATIC-SAME: -> (tensor<f32> {mp.loss}, tensor<4x3xf32> {mp.grad_of = 0 : i64}, tensor<4xf32> {mp.grad_of = 1 : i64}, tensor<i1> {mp.found_inf})
// STATIC: %[[C:.*]] = arith.constant dense<1.024000e+03> : tensor<f32>
// STATIC: mp.scale_seed %[[SEED]], %[[C]]
// STATIC: %[[U:.*]]:2, %[[INF:.*]] = mp.unscale %[[C]]
// STATIC-NOT: mp.update_scale
// STATIC: return %{{.*}}, %[[U]]#0, %[[U]]#1, %[[INF]]

// NONE-LABEL: func.func @grad(
// NONE-SAME: -> (tensor<f32> {mp.loss}, tensor<4x3xf32> {mp.grad_of = 0 : i64}, tensor<4xf32> {mp.grad_of = 1 : i64}) {
// NONE-NOT: mp.
// NONE: return

// HYST-LABEL: func.func @grad(
// HYST-SAME: tensor<f32> {mp.loss_scale, mp.state = 2.560000e+02 : f32}, %[[TRACK:[^:]+]]: tensor<i32> {mp.state = 0 : i32}, %[[H:[^:]+]]: tensor<i32> {mp.state = 3 : i32})
// HYST-SAME: tensor<i32> {mp.updates = 5 : i64})
// HYST: mp.update_scale %{{.*}}, %[[TRACK]], %{{.*}} hysteresis %[[H]] : tensor<i32> {growth_interval = 100 : i32, hysteresis = 3 : i32, max_scale = 0x4B800000 : f32, min_scale = 1.000000e+00 : f32}
func.func @grad(%w: tensor<4x3xf32> {mp.param}, %b: tensor<4xf32> {mp.param},
                %seed: tensor<f32> {mp.grad_seed})
    -> (tensor<f32> {mp.loss}, tensor<4x3xf32> {mp.grad_of = 0 : i64},
        tensor<4xf32> {mp.grad_of = 1 : i64}) {
  %s = tensor.extract %seed[] : tensor<f32>
  %low = arith.truncf %w : tensor<4x3xf32> to tensor<4x3xf16>
  %gw = arith.extf %low : tensor<4x3xf16> to tensor<4x3xf32>
  %gb = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      outs(%b : tensor<4xf32>) {
  ^bb0(%o: f32):
    %m = arith.mulf %o, %s : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  %l = arith.constant dense<1.0> : tensor<f32>
  return %l, %gw, %gb : tensor<f32>, tensor<4x3xf32>, tensor<4xf32>
}

// -----

// Functions without gradients are left alone.
// DYN-LABEL: func.func @plain(%{{.*}}: tensor<4xf32>) -> tensor<4xf32>
// DYN-NOT: mp.
func.func @plain(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
