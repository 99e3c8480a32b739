// RUN: mp-opt %s --pass-pipeline='builtin.module(mp-lower-to-cpu)' | FileCheck %s \
// RUN:   --implicit-check-not=linalg. --implicit-check-not='tensor<' \
// RUN:   --implicit-check-not=memref. --implicit-check-not=unrealized_conversion_cast
// RUN: mp-opt %s --pass-pipeline='builtin.module(mp-lower-to-cpu{tile-n=8})' | FileCheck %s --check-prefix=TILE
// RUN: mp-opt %s --pass-pipeline='builtin.module(mp-lower-to-cpu{opt-level=0})' | FileCheck %s --check-prefix=O0 --implicit-check-not=omp.
// RUN: mp-opt %s --pass-pipeline='builtin.module(mp-lower-to-cpu{parallel=false})' | FileCheck %s --check-prefix=SERIAL --implicit-check-not=omp.
// RUN: not mp-opt %s --pass-pipeline='builtin.module(func.func(mp-lower-to-cpu))' 2>&1 | FileCheck %s --check-prefix=NESTED
// RUN: not mp-opt %s --pass-pipeline='builtin.module(mp-lower-to-cpu{opt-level=4})' 2>&1 | FileCheck %s --check-prefix=OPT
// RUN: not mp-opt %s --pass-pipeline='builtin.module(mp-lower-to-cpu{tile-m=0})' 2>&1 | FileCheck %s --check-prefix=TILES

// The Adam training steps of the examples (examples/torch) copy nothing
// through MLIR's strided memrefCopy: the contractions write their blocks in
// place, and the copies into padded or strided views (the CNN's
// convolutions and their gradients) are loops.
// RUN: mp-opt %mp_src/examples/torch/mlp/mlp_grad.mlir --mp-train-pipeline='policy=fp16 optimizer=adam' --mp-lower-to-cpu | FileCheck %s --check-prefix=STEP -DNAME=mlp --implicit-check-not=memrefCopy
// RUN: mp-opt %mp_src/examples/torch/cnn/cnn_grad.mlir --mp-train-pipeline='policy=bf16 optimizer=adam' --mp-lower-to-cpu | FileCheck %s --check-prefix=STEP -DNAME=cnn --implicit-check-not=memrefCopy
// RUN: mp-opt %mp_src/examples/torch/transformer/transformer_grad.mlir --mp-train-pipeline='policy=fp16 optimizer=adam' --mp-lower-to-cpu | FileCheck %s --check-prefix=STEP -DNAME=transformer --implicit-check-not=memrefCopy
// STEP: llvm.func @[[NAME]]_grad_step(
// The fp32 CNN's input gradient of its strided convolution, split into
// phases (mp-split-convolution-phases): each phase's GEMM result goes
// straight into its every-other-pixel view of the gradient (empty tensor
// elimination; mp-flatten-elementwise keeps that view's rows apart), never
// through a copy into or out of a contiguous buffer.
// RUN: mp-opt %mp_src/examples/torch/cnn/cnn_grad.mlir --mp-train-pipeline='policy=none optimizer=adam' --mp-lower-to-cpu --mlir-print-ir-before=mp-strided-copies-to-linalg -o /dev/null 2>&1 | FileCheck %s --check-prefix=PHASES
// PHASES-LABEL: func.func @cnn_grad(
// PHASES-COUNT-4: memref.subview {{.*}} [64, 8, 7, 7] [1, 1, 2, 2]
// PHASES-NOT: memref.copy {{.*}}strided<[1568, 196, 28, 2]
// PHASES: return
// With bf16-dot, the bf16 MLP step's GEMMs (all but the 10-wide output
// layer's) multiply with AVX512-BF16's dot product, no widening of the packed
// operands to f32.
// RUN: mp-opt %mp_src/examples/torch/mlp/mlp_grad.mlir --mp-train-pipeline='policy=bf16 optimizer=adam' --mp-lower-to-cpu='bf16-dot=true' | FileCheck %s --check-prefix=DOT --implicit-check-not=memrefCopy
// DOT: llvm.call_intrinsic "llvm.x86.avx512bf16.dpbf16ps.512"
// The input of mp-run after mp-amp-pipeline: f16 inputs, f32 accumulation,
// f16 elementwise work, softmax, a loop. Everything reaches the LLVM dialect;
// f16 arithmetic runs in f32 (the 4x4 product: its f16 operands widened
// once, then 4-wide register blocks); buffers come from aligned_alloc (so
// the runtime hands result buffers over without copying them); every
// function gets a C interface wrapper.

// CHECK-LABEL: llvm.func @mixed(
// CHECK: llvm.fpext {{.*}} : f16 to f32
// CHECK: llvm.intr.fmuladd({{.*}}) : (vector<4xf32>, vector<4xf32>, vector<4xf32>) -> vector<4xf32>
// CHECK: llvm.fptrunc {{.*}} : f32 to f16
// CHECK: llvm.call @aligned_alloc
// CHECK-LABEL: llvm.func @_mlir_ciface_mixed(
func.func @mixed(%a: tensor<4x8xf16>, %b: tensor<8x4xf16>, %x: tensor<4x4xf32>) -> (tensor<4x4xf16>, tensor<4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %m = linalg.matmul ins(%a, %b : tensor<4x8xf16>, tensor<8x4xf16>) outs(%z : tensor<4x4xf32>) -> tensor<4x4xf32>
  %h = arith.truncf %m : tensor<4x4xf32> to tensor<4x4xf16>
  %t = math.tanh %h : tensor<4x4xf16>
  %s = linalg.softmax dimension(1) ins(%x : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %t, %s : tensor<4x4xf16>, tensor<4x4xf32>
}

// A contraction the default 4x16 register block divides is vectorized
// (opt-level=0 keeps scalar loops); tile-n=8 makes 8-wide blocks.
// CHECK-LABEL: llvm.func @vectorized(
// CHECK: llvm.intr.fmuladd({{.*}}) : (vector<16xf32>, vector<16xf32>, vector<16xf32>) -> vector<16xf32>
// CHECK-LABEL: llvm.func @_mlir_ciface_vectorized(
// TILE-LABEL: llvm.func @vectorized(
// TILE: llvm.intr.fmuladd({{.*}}) : (vector<8xf32>, vector<8xf32>, vector<8xf32>) -> vector<8xf32>
// O0-LABEL: llvm.func @vectorized(
// O0-NOT: vector<
// O0: llvm.func @_mlir_ciface_vectorized(
func.func @vectorized(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %m = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %m : tensor<4x16xf32>
}

// NESTED: error: mp-lower-to-cpu runs on 'builtin.module', not nested under 'func.func': write --pass-pipeline='builtin.module(mp-lower-to-cpu{...})'
// OPT: error: mp-lower-to-cpu: opt-level=4 is invalid: expected 0, 1, 2 or 3
// TILES: error: mp-lower-to-cpu: tile-m, tile-n and tile-k must be positive

// An op with enough work (mp-distribute-loops) runs on OpenMP threads: a
// parallel region whose worksharing loop covers its 64 shares; on one
// thread with parallel=false or at opt-level=0.
// CHECK-LABEL: llvm.func @threads(
// CHECK: omp.parallel {
// CHECK-NEXT: omp.wsloop {
// CHECK-NEXT: omp.loop_nest (%{{.*}}) : i64 = (%{{.*}}) to (%{{.*}}) step (%{{.*}}) {
// CHECK: llvm.intr.exp
// CHECK: omp.terminator
// SERIAL-LABEL: llvm.func @threads(
// SERIAL: llvm.intr.exp
func.func @threads(%x: tensor<64x8x14x14xf32>) -> tensor<64x8x14x14xf32> {
  %e = math.exp %x : tensor<64x8x14x14xf32>
  return %e : tensor<64x8x14x14xf32>
}
