// RUN: not mp-opt %s --mp-make-train-step="optimizer=lamb" 2>&1 | FileCheck %s --check-prefix=OPT
// RUN: not mp-opt %s --mp-make-train-step="lr=0" 2>&1 | FileCheck %s --check-prefix=LR
// RUN: not mp-opt %s --mp-make-train-step="optimizer=adam beta2=1" 2>&1 | FileCheck %s --check-prefix=BETA
// RUN: not mp-opt %s --mp-make-train-step="nesterov=true" 2>&1 | FileCheck %s --check-prefix=NESTEROV
// RUN: not mp-opt %s --mp-make-train-step="clip-norm=-1" 2>&1 | FileCheck %s --check-prefix=CLIP
// RUN: not mp-opt %s --mp-make-train-step="weight-decay=-5" 2>&1 | FileCheck %s --check-prefix=DECAY
// RUN: not mp-opt %S/Inputs/dynamic-param.mlir --mp-make-train-step="accumulate=2" 2>&1 | FileCheck %s --check-prefix=DYN
// DYN: dynamic-param.mlir:2:1: error: accumulate=2: result #1 of @grad has type 'tensor<?xf32>'; accumulating micro-batches needs static shapes
// RUN: not mp-opt %S/Inputs/unranked-input.mlir --mp-make-train-step="accumulate=2" 2>&1 | FileCheck %s --check-prefix=UNRANKED
// UNRANKED: unranked-input.mlir:3:1: error: accumulate=2: input argument #1 of @grad has type 'tensor<*xf32>'; accumulating micro-batches needs static shapes
// RUN: not mp-opt %s --mp-make-train-step="accumulate=0" 2>&1 | FileCheck %s --check-prefix=ACC
// RUN: not mp-opt %s --mp-make-train-step="data-parallel=true allreduce-type=f16" 2>&1 | FileCheck %s --check-prefix=F16
// F16: make-train-step-invalid.mlir:[[@LINE+13]]:1: error: allreduce-type=f16: @grad has no loss scaling; f16 gradients need it to stay in range and to skip steps whose sum overflows (run mp-loss-scaling, or use allreduce-type=bf16 or f32)
// RUN: not mp-opt %S/Inputs/extra-state.mlir --mp-make-train-step="data-parallel=true" 2>&1 | FileCheck %s --check-prefix=STATE
// STATE: extra-state.mlir:3:1: error: data-parallel: result #2 of @grad updates state that is not the loss scale's; only the loss scale is supported with data-parallel training
// RUN: not mp-opt %S/Inputs/extra-state.mlir --mp-make-train-step="accumulate=2" 2>&1 | FileCheck %s --check-prefix=ACCSTATE
// ACCSTATE: extra-state.mlir:3:1: error: accumulate=2: result #2 of @grad updates state that is not the loss scale's; only the loss scale is supported with gradient accumulation

// OPT: for the --optimizer option: Cannot find option named 'lamb'!
// LR: error: mp-make-train-step: lr=0 is invalid: expected a positive learning rate
// BETA: error: mp-make-train-step: beta2=1 is invalid: expected a value in [0, 1)
// NESTEROV: error: mp-make-train-step: nesterov needs optimizer=momentum, not 'sgd'
// DECAY: error: mp-make-train-step: weight-decay=-5 is invalid: expected 0 or a positive value (-1: the optimizer's default)
// CLIP: error: mp-make-train-step: clip-norm=-1 is invalid: expected 0 (off) or a positive norm
// ACC: error: mp-make-train-step: accumulate=0 is invalid: expected at least 1 micro-batch
func.func @grad(%w: tensor<4xf32> {mp.param}, %seed: tensor<f32> {mp.grad_seed})
    -> (tensor<f32> {mp.loss}, tensor<4xf32> {mp.grad_of = 0 : i64}) {
  return %seed, %w : tensor<f32>, tensor<4xf32>
}
