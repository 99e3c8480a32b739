// RUN: not mp-opt %s --mp-loss-scaling="mode=static static-scale=0" 2>&1 | FileCheck %s --check-prefix=MODE
// RUN: not mp-opt %s --mp-loss-scaling="mode=sometimes" 2>&1 | FileCheck %s --check-prefix=MODE2
// RUN: not mp-opt %s --mp-loss-scaling="mode=auto policy=%t.missing.json" 2>&1 | FileCheck %s --check-prefix=POLICY
// POLICY: error: mp-loss-scaling: cannot read policy file '{{.*}}missing.json'
// RUN: not mp-opt %s --mp-loss-scaling="backoff-factor=1.5" 2>&1 | FileCheck %s --check-prefix=BACKOFF
// RUN: not mp-opt %s --mp-loss-scaling="hysteresis=0" 2>&1 | FileCheck %s --check-prefix=HYST
// RUN: not mp-opt %s --mp-loss-scaling="min-scale=8 max-scale=4" 2>&1 | FileCheck %s --check-prefix=BOUNDS
// RUN: not mp-opt %s --mp-loss-scaling --mp-loss-scaling 2>&1 | FileCheck %s --check-prefix=TWICE

// MODE: error: mp-loss-scaling: static-scale=0 is invalid: expected a positive finite scale
// MODE2: for the --mode option: Cannot find option named 'sometimes'!
// BACKOFF: error: mp-loss-scaling: backoff-factor=1.5 is invalid: expected a value in (0, 1)
// HYST: error: mp-loss-scaling: hysteresis=0 is invalid: expected at least 1
// BOUNDS: error: mp-loss-scaling: min-scale=8 is invalid: it exceeds max-scale
// TWICE: error: @grad is already loss-scaled (it has an mp.loss_scale argument or an mp.found_inf result)
func.func @grad(%w: tensor<4xf32> {mp.param}, %seed: tensor<f32> {mp.grad_seed})
    -> (tensor<f32> {mp.loss}, tensor<4xf32> {mp.grad_of = 0 : i64}) {
  return %seed, %w : tensor<f32>, tensor<4xf32>
}

