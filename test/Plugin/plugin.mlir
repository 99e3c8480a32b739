// Stock mlir-opt loads mp as a dialect and pass plugin and gives the same
// output as mp-opt.
// RUN: mlir-opt %s --load-dialect-plugin=%mp_plugin --load-pass-plugin=%mp_plugin --pass-pipeline='builtin.module(mp-amp-pipeline{policy=fp16})' -o %t.plugin.mlir
// RUN: mp-opt %s --pass-pipeline='builtin.module(mp-amp-pipeline{policy=fp16})' -o %t.mp.mlir
// RUN: diff %t.plugin.mlir %t.mp.mlir
// RUN: FileCheck %s --input-file=%t.plugin.mlir
// The dialect plugin parses mp attributes; the pass plugin runs single passes.
// RUN: mlir-opt %s --load-dialect-plugin=%mp_plugin --load-pass-plugin=%mp_plugin --pass-pipeline='builtin.module(mp-classify-precision)' | FileCheck %s --check-prefix=CLASSIFY
// RUN: mlir-opt %mp_src/examples/mlp_grad.mlir --load-dialect-plugin=%mp_plugin --load-pass-plugin=%mp_plugin --pass-pipeline='builtin.module(mp-amp-pipeline{policy=bf16})' -o %t.mlp.plugin.mlir
// RUN: mp-opt %mp_src/examples/mlp_grad.mlir --pass-pipeline='builtin.module(mp-amp-pipeline{policy=bf16})' -o %t.mlp.mp.mlir
// RUN: diff %t.mlp.plugin.mlir %t.mlp.mp.mlir
// The training pipeline (loss-scaling ops included) through the plugin.
// RUN: mlir-opt %mp_src/examples/mlp_grad.mlir --load-dialect-plugin=%mp_plugin --load-pass-plugin=%mp_plugin --pass-pipeline='builtin.module(mp-train-pipeline{policy=fp16 optimizer=adam})' -o %t.train.plugin.mlir
// RUN: mp-opt %mp_src/examples/mlp_grad.mlir --pass-pipeline='builtin.module(mp-train-pipeline{policy=fp16 optimizer=adam})' -o %t.train.mp.mlir
// RUN: diff %t.train.plugin.mlir %t.train.mp.mlir
// RUN: FileCheck %s --check-prefix=TRAIN --input-file=%t.train.plugin.mlir
// TRAIN: mp.unscale
// TRAIN: mp.update_scale
// TRAIN: func.func @mlp_grad_step(

// CHECK-LABEL: func.func @f
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<8x8xf16>, tensor<8x8xf16>) outs(%{{.*}} : tensor<8x8xf32>)
// CHECK: linalg.exp {mp.override = #mp.precision<f32>} ins(%{{.*}} : tensor<8x8xf32>)
// CLASSIFY: linalg.matmul {mp.class = #mp.class<allow>, mp.precision = #mp.precision<f16>}
func.func @f(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %e = tensor.empty() : tensor<8x8xf32>
  %0 = linalg.matmul ins(%a, %a : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %1 = linalg.exp {mp.override = #mp.precision<f32>} ins(%0 : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}
