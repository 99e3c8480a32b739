// RUN: mp-opt %s --mp-train-pipeline | FileCheck %s --check-prefix=FP16
// RUN: mp-opt %s --mp-train-pipeline="policy=bf16" | FileCheck %s --check-prefix=BF16
// RUN: mp-opt %s --mp-train-pipeline="policy=none optimizer=momentum" | FileCheck %s --check-prefix=FP32
// RUN: mp-opt %s --mp-train-pipeline="policy=bf16 loss-scale=static static-scale=128 optimizer=adamw accumulate=2" | FileCheck %s --check-prefix=OPTS
// RUN: not mp-opt %s --mp-train-pipeline="loss-scale=never" 2>&1 | FileCheck %s --check-prefix=BAD
// Only mp-verify-training-contract reports: a warning appears once, though
// three passes of the pipeline read the contract.
// RUN: mp-opt %S/Inputs/frozen-param.mlir --mp-train-pipeline 2>&1 >/dev/null | FileCheck %s --check-prefix=ONCE
// ONCE: warning: argument #1 of @grad is a parameter without a gradient
// ONCE-NOT: without a gradient
// A policy file is loaded when the passes run; its error is reported once.
// RUN: not mp-opt %s --mp-train-pipeline="policy=%t.missing.json" 2>&1 | FileCheck %s --check-prefix=POLICY --implicit-check-not=error
// POLICY: error: mp-classify-precision: cannot read policy file '{{.*}}missing.json'
// RUN: not mp-opt %s --pass-pipeline='builtin.module(func.func(mp-train-pipeline))' 2>&1 | FileCheck %s --check-prefix=NESTED
// NESTED: error: mp-train-pipeline runs on 'builtin.module', not nested under 'func.func'

// The default (fp16 policy): f16 matmul with f32 accumulation, dynamic loss
// scaling with GradScaler's defaults, SGD step.
// FP16-LABEL: func.func @grad(
// FP16-SAME: {mp.loss_scale, mp.state = 6.553600e+04 : f32}
// FP16: mp.scale_seed
// FP16: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<8x16xf16>, tensor<16x4xf16>) outs(%{{.*}} : tensor<8x4xf32>)
// FP16: mp.unscale
// FP16: mp.update_scale
// FP16-LABEL: func.func @grad_step(
// FP16: scf.if

// bf16: low-precision compute, no loss scaling (auto), nothing to skip.
// BF16-LABEL: func.func @grad(
// BF16-NOT: mp.loss_scale
// BF16: tensor<16x4xbf16>
// BF16-NOT: mp.unscale
// BF16-LABEL: func.func @grad_step(
// BF16-NOT: scf.if
// BF16: return

// policy=none: fp32 training, only the optimizer.
// FP32-LABEL: func.func @grad(
// FP32-NOT: f16
// FP32-LABEL: func.func @grad_step(
// FP32-SAME: tensor<16x4xf32> {mp.state = 0.000000e+00 : f32})

// The options reach the passes.
// With accumulation the gradient function is inlined into the micro-batch
// loop and the cast of the master weight hoisted out of it (once per step).
// OPTS: arith.constant dense<1.280000e+02> : tensor<f32>
// OPTS-LABEL: func.func @grad_step(
// OPTS-SAME: %[[W:[^:]+]]: tensor<16x4xf32> {mp.param}, %{{[^:]+}}: tensor<2x8x16xf32> {mp.input}
// OPTS: arith.truncf %[[W]] : tensor<16x4xf32> to tensor<16x4xbf16>
// OPTS: scf.for
// OPTS-NOT: call @grad
// OPTS-NOT: arith.truncf %[[W]]
// OPTS: scf.if

// BAD: for the --loss-scale option: Cannot find option named 'never'!
func.func @grad(%w: tensor<16x4xf32> {mp.param}, %x: tensor<8x16xf32> {mp.input},
                %seed: tensor<f32> {mp.grad_seed})
    -> (tensor<f32> {mp.loss}, tensor<16x4xf32> {mp.grad_of = 0 : i64}) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<8x4xf32>) -> tensor<8x4xf32>
  %y = linalg.matmul ins(%x, %w : tensor<8x16xf32>, tensor<16x4xf32>) outs(%z : tensor<8x4xf32>) -> tensor<8x4xf32>
  // loss = seed-free sum of y; gradient w = x^T (seed * ones)
  %es = tensor.empty() : tensor<f32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<f32>) -> tensor<f32>
  %loss = linalg.reduce ins(%y : tensor<8x4xf32>) outs(%zs : tensor<f32>) dimensions = [0, 1]
    (%in: f32, %acc: f32) {
      %a = arith.addf %in, %acc : f32
      linalg.yield %a : f32
    }
  %s = tensor.extract %seed[] : tensor<f32>
  %ones = linalg.fill ins(%s : f32) outs(%e : tensor<8x4xf32>) -> tensor<8x4xf32>
  %ext = tensor.empty() : tensor<16x8xf32>
  %xt = linalg.transpose ins(%x : tensor<8x16xf32>) outs(%ext : tensor<16x8xf32>) permutation = [1, 0]
  %eg = tensor.empty() : tensor<16x4xf32>
  %zg = linalg.fill ins(%zero : f32) outs(%eg : tensor<16x4xf32>) -> tensor<16x4xf32>
  %g = linalg.matmul ins(%xt, %ones : tensor<16x8xf32>, tensor<8x4xf32>) outs(%zg : tensor<16x4xf32>) -> tensor<16x4xf32>
  return %loss, %g : tensor<f32>, tensor<16x4xf32>
}
