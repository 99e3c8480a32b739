// RUN: mp-opt %s --split-input-file --mp-vectorize-contractions='tile-m=4' | FileCheck %s
// RUN: mp-opt %s --split-input-file --mp-vectorize-contractions='tile-m=2 tile-n=8 tile-k=4' | FileCheck %s --check-prefix=SIZES
// RUN: not mp-opt %s --mp-vectorize-contractions='tile-m=0' 2>&1 | FileCheck %s --check-prefix=BAD

// (The block sizes below are those of a 4 x 16 register block, pinned so
// that the default, tuned for speed, may change.)
// BAD: error: mp-vectorize-contractions: tile-m, tile-n and tile-k must be positive

// Loops n, m, k; the right-hand panel is packed once per n step (16 row
// blocks read it); the
// accumulator block is a vector carried by the k loop, read from the output
// before it and written back after it (the k loop carries nothing else, so
// bufferization writes the block in place); f16 operands accumulate into
// f32.
// CHECK-LABEL: func.func @matmul
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %c16
// CHECK: %[[PANEL:.*]] = tensor.extract_slice %{{.*}}[0, %[[J]]] [32, 16] [1, 1] : tensor<32x64xf16> to tensor<32x16xf16>
// CHECK: %[[PACKED:.*]] = linalg.copy ins(%[[PANEL]] : tensor<32x16xf16>)
// CHECK: scf.for %[[I:.*]] = %{{.*}} step %c4 iter_args(%[[OUT:.*]] = %{{.*}}) -> (tensor<64x64xf32>)
// CHECK: %[[BLOCK:.*]] = tensor.extract_slice %[[OUT]][%[[I]], %[[J]]] [4, 16] [1, 1]
// CHECK: %[[INIT:.*]] = vector.transfer_read %[[BLOCK]]
// CHECK: %[[SUM:.*]] = scf.for %[[K:arg[0-9]+]] = %{{.*}} to %{{.*}} step %c1 iter_args(%[[ACC:arg[0-9]+]] = %[[INIT]]) -> (vector<4x16xf32>)
// CHECK: tensor.extract_slice %[[PACKED]][%[[K]], 0] [1, 16]
// CHECK: vector.transfer_read {{.*}} : tensor<4x1xf16>, vector<4x1xf16>
// CHECK: vector.contract {{.*}} %[[ACC]] : vector<4x1xf16>, vector<1x16xf16> into vector<4x16xf32>
// CHECK: %[[NEW:.*]] = vector.transfer_write %[[SUM]], %[[BLOCK]]
// CHECK: tensor.insert_slice %[[NEW]] into %[[OUT]][%[[I]], %[[J]]] [4, 16] [1, 1]
// SIZES-LABEL: func.func @matmul
// SIZES: vector.contract {{.*}} : vector<2x4xf16>, vector<4x8xf16> into vector<2x8xf32>
func.func @matmul(%a: tensor<64x32xf16>, %b: tensor<32x64xf16>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<64x32xf16>, tensor<32x64xf16>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// -----

// With fewer than 16 row blocks (here 2) the register blocks read the
// right-hand side where it is: a copy would cost as much as the reads.
// CHECK-LABEL: func.func @few_rows
// CHECK-SAME: %{{[^:]+}}: tensor<8x32xf32>, %[[B:[^:]+]]: tensor<32x64xf32>
// CHECK-NOT: linalg.copy
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %c16
// CHECK: scf.for %[[K:arg[0-9]+]] = %{{.*}} to %{{.*}} step %c1
// CHECK: tensor.extract_slice %[[B]][%[[K]], %[[J]]] [1, 16]
// CHECK: vector.contract
func.func @few_rows(%a: tensor<8x32xf32>, %b: tensor<32x64xf32>, %c: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<8x32xf32>, tensor<32x64xf32>) outs(%c : tensor<8x64xf32>) -> tensor<8x64xf32>
  return %0 : tensor<8x64xf32>
}

// -----

// Sizes the block does not divide shrink it: a loop shorter than the block
// is one block (10 columns), else the block is the largest divisor of both
// (7 rows: 1; 10 rows: 2; 40 columns: 8).
// CHECK-LABEL: func.func @odd
// CHECK: scf.for %{{.*}} = %c0 to %c7 step %c1
// CHECK: scf.for
// CHECK: vector.contract {{.*}} : vector<1x1xf32>, vector<1x10xf32> into vector<1x10xf32>
// CHECK-NOT: linalg.matmul
// CHECK-LABEL: func.func @divisors
// CHECK: vector.contract {{.*}} : vector<2x1xf32>, vector<1x8xf32> into vector<2x8xf32>
// CHECK-NOT: linalg.matmul
func.func @odd(%a: tensor<7x9xf32>, %b: tensor<9x10xf32>, %c: tensor<7x10xf32>) -> tensor<7x10xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<7x9xf32>, tensor<9x10xf32>) outs(%c : tensor<7x10xf32>) -> tensor<7x10xf32>
  return %0 : tensor<7x10xf32>
}
func.func @divisors(%a: tensor<10x8xf32>, %b: tensor<8x40xf32>, %c: tensor<10x40xf32>) -> tensor<10x40xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<10x8xf32>, tensor<8x40xf32>) outs(%c : tensor<10x40xf32>) -> tensor<10x40xf32>
  return %0 : tensor<10x40xf32>
}

// -----

// Batch loops come first (the n loop, of one block here, folds away).
// CHECK-LABEL: func.func @batch
// CHECK: scf.for %{{.*}} = %c0 to %c2 step %c1
// CHECK-NOT: step %c16
// CHECK: vector.contract
func.func @batch(%a: tensor<2x4x8xf32>, %b: tensor<2x8x16xf32>, %c: tensor<2x4x16xf32>) -> tensor<2x4x16xf32> {
  %0 = linalg.batch_matmul ins(%a, %b : tensor<2x4x8xf32>, tensor<2x8x16xf32>) outs(%c : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
  return %0 : tensor<2x4x16xf32>
}

// -----

// K is static on one operand and dynamic on the other: the contraction is
// left to the scalar lowering (tiling by the static range would slice the
// dynamic operand wrongly).
// CHECK-LABEL: func.func @mixed_static_k
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<16x32xf32>, tensor<?x16xf32>)
// CHECK-NOT: vector.
func.func @mixed_static_k(%a: tensor<16x32xf32>, %b: tensor<?x16xf32>, %c: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<16x32xf32>, tensor<?x16xf32>) outs(%c : tensor<16x16xf32>) -> tensor<16x16xf32>
  return %0 : tensor<16x16xf32>
}

// -----

// Operands of two element types (from the pipeline fuzzer): vector.contract
// takes one type for both, so the contraction is left to the scalar lowering.
// CHECK-LABEL: func.func @mixed_operand_types
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<4x8xbf16>, tensor<8x16xf32>)
// CHECK-NOT: vector.
func.func @mixed_operand_types(%a: tensor<4x8xbf16>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<4x8xbf16>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// -----

// f64 operands into an f32 accumulator, f16 into i32 (from the pipeline
// fuzzer): upstream's contract lowering only extends operands (it built
// arith.extf f64 -> f32 and arith.extsi on floats), so these contractions
// are left to the scalar lowering.
// CHECK-LABEL: func.func @narrowing_accumulator
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<4x8xf64>, tensor<8x16xf64>)
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<8x32xf16>, tensor<32x64xf16>) outs(%{{.*}} : tensor<8x64xi32>)
// CHECK-NOT: vector.
func.func @narrowing_accumulator(%a: tensor<4x8xf64>, %b: tensor<8x16xf64>, %c: tensor<4x16xf32>, %h: tensor<8x32xf16>, %g: tensor<32x64xf16>, %i: tensor<8x64xi32>) -> (tensor<4x16xf32>, tensor<8x64xi32>) {
  %0 = linalg.matmul ins(%a, %b : tensor<4x8xf64>, tensor<8x16xf64>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
  %1 = linalg.matmul ins(%h, %g : tensor<8x32xf16>, tensor<32x64xf16>) outs(%i : tensor<8x64xi32>) -> tensor<8x64xi32>
  return %0, %1 : tensor<4x16xf32>, tensor<8x64xi32>
}

// -----

// bf16 pairs (mp-pack-bf16-contractions): blocks of at most 16 columns,
// the right-hand side's 16 pairs read as one vector of 32 elements, one
// AVX512-BF16 dot product per row of the block. The sizes run: 2 x 8 blocks of 3
// reduction steps, 6 dot products of 8 lanes each.
// CHECK-LABEL: func.func @pairs
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %c16
// CHECK: scf.for %{{.*}} step %c4 iter_args
// CHECK: scf.for %[[K:arg[0-9]+]] = %{{.*}} to %c3 step %c1 iter_args(%{{.*}}) -> (vector<4x16xf32>)
// CHECK: vector.transfer_read {{.*}} : tensor<4x1x2xbf16>, vector<4x1x2xbf16>
// CHECK: %[[FLAT:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0], [1, 2]] : tensor<3x32x2xbf16> into tensor<3x64xbf16>
// CHECK: %[[COL:.*]] = affine.apply #{{.*}}(%[[J]])
// CHECK: %[[ROW:.*]] = tensor.extract_slice %[[FLAT]][%[[K]], %[[COL]]] [1, 32] [1, 1] : tensor<3x64xbf16> to tensor<32xbf16>
// CHECK: %[[B:.*]] = vector.transfer_read %[[ROW]]{{.*}} : tensor<32xbf16>, vector<32xbf16>
// CHECK-COUNT-4: x86vector.avx512.dot %{{.*}}, %{{.*}}, %[[B]] : vector<32xbf16> -> vector<16xf32>
// CHECK-NOT: x86vector.avx512.dot
// CHECK-NOT: vector.contract
// CHECK: return
// SIZES-LABEL: func.func @pairs
// SIZES-COUNT-6: x86vector.avx512.dot {{.*}} : vector<16xbf16> -> vector<8xf32>
// SIZES-NOT: x86vector.avx512.dot
// SIZES-NOT: vector.contract
func.func @pairs(%a: tensor<8x3x2xbf16>, %b: tensor<3x32x2xbf16>, %c: tensor<8x32xf32>) -> tensor<8x32xf32> {
  %0 = linalg.contract indexing_maps = [affine_map<(m, n, k, p) -> (m, k, p)>, affine_map<(m, n, k, p) -> (k, n, p)>, affine_map<(m, n, k, p) -> (m, n)>]
      ins(%a, %b : tensor<8x3x2xbf16>, tensor<3x32x2xbf16>) outs(%c : tensor<8x32xf32>) -> tensor<8x32xf32>
  return %0 : tensor<8x32xf32>
}

// -----

// bf16 operands not in pairs: vector.contract, no dot products (those are
// for the pair layout alone, which only a CPU with AVX512-BF16 gets).
// CHECK-LABEL: func.func @flat_bf16
// CHECK-NOT: x86vector
// CHECK: vector.contract
// CHECK-NOT: x86vector
// SIZES-LABEL: func.func @flat_bf16
// SIZES-NOT: x86vector
// SIZES: vector.contract {{.*}} : vector<2x4xbf16>, vector<4x8xbf16> into vector<2x8xf32>
// SIZES-NOT: x86vector
func.func @flat_bf16(%a: tensor<8x4xbf16>, %b: tensor<4x16xbf16>, %c: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = linalg.contract indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : tensor<8x4xbf16>, tensor<4x16xbf16>) outs(%c : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

// A generic contraction (torch-style A x B^T) becomes a linalg.contract with
// its maps before it is vectorized: one vector.contract, computed with
// fused multiply-adds as the named ones and the GPU's, not a product and a
// multi-reduction, whose additions LLVM keeps apart (a 40 x 40 x 40 f32
// GEMM came out one ulp off the GPU emulation's in 1065 elements). A body
// that is not a multiply-accumulate stays a generic.
// CHECK-LABEL: func.func @generic
// CHECK: vector.contract {indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} {{.*}} : vector<4x1xf32>, vector<16x1xf32> into vector<4x16xf32>
// CHECK-NOT: vector.multi_reduction
// CHECK: linalg.generic
// CHECK: arith.subf
// CHECK: return
func.func @generic(%a: tensor<8x32xf32>, %b: tensor<16x32xf32>, %c: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %0 = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : tensor<8x32xf32>, tensor<16x32xf32>) outs(%c : tensor<8x16xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<8x16xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : tensor<8x32xf32>, tensor<16x32xf32>) outs(%c : tensor<8x16xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.subf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<8x16xf32>
  return %0, %1 : tensor<8x16xf32>, tensor<8x16xf32>
}
