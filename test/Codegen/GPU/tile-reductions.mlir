// RUN: mp-opt %s --split-input-file --mp-gpu-tile-reductions --mlir-print-local-scope | FileCheck %s
// RUN: mp-opt %s --split-input-file --mp-gpu-tile-reductions='threads=64 min-extent=16 max-outputs=100000' --mlir-print-local-scope | FileCheck %s --check-prefix=SMALL
// RUN: mp-opt %s --split-input-file --mp-gpu-tile-reductions='warp-min-extent=32' --mlir-print-local-scope | FileCheck %s --check-prefix=LOW
// RUN: mp-opt %s --split-input-file --mp-gpu-tile-reductions='warp-min-extent=0' --mlir-print-local-scope | FileCheck %s --check-prefix=OFF
// RUN: mp-opt %s --split-input-file --mp-gpu-tile-reductions='siblings=false' --mlir-print-local-scope | FileCheck %s --check-prefix=APART
// RUN: mp-opt %s --split-input-file --mp-gpu-tile-reductions='epilogues=false' --mlir-print-local-scope | FileCheck %s --check-prefix=NO-EPILOGUE
// RUN: not mp-opt %s --mp-gpu-tile-reductions='threads=48' 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not mp-opt %s --mp-gpu-tile-reductions='warp-min-extent=-1' 2>&1 | FileCheck %s --check-prefix=BAD-WARP
// RUN: not mp-opt %s --mp-lower-to-gpu='warp-min-extent=-2' 2>&1 | FileCheck %s --check-prefix=BAD-PIPELINE

// BAD: error: mp-gpu-tile-reductions: threads=48 is invalid: expected a power of two from 32 to 1024
// BAD-WARP: error: mp-gpu-tile-reductions: warp-min-extent=-1 is invalid: expected 0 (no warp reductions) or more
// BAD-PIPELINE: error: mp-lower-to-gpu: warp-min-extent=-2 is invalid: expected 0 (no warp reductions) or more

// A full sum of 4096 terms: one block of 256 threads, each folding the terms
// t, t + 256, ... into 0 (the neutral element of addf), then a tree over the
// workgroup buffer (128, 64, 32), and one warp reduces the last 32
// (gpu.subgroup_reduce) and its thread 0 adds the total to the output's
// initial value.
// CHECK-LABEL: func.func @full_sum
// CHECK-SAME: (%[[X:.*]]: memref<64x64xf32>, %[[OUT:.*]]: memref<f32>)
// CHECK: scf.forall (%[[B:.*]]) in (1) {
// CHECK: %[[P:.*]] = memref.alloc() : memref<256xf32, #gpu.address_space<workgroup>>
// CHECK: scf.forall (%[[T:.*]]) in (256) {
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG: %[[STEP:.*]] = arith.constant 256 : index
// CHECK-DAG: %[[N:.*]] = arith.constant 4096 : index
// CHECK: %[[PART:.*]] = scf.for %[[I:.*]] = %[[T]] to %[[N]] step %[[STEP]] iter_args(%[[ACC:.*]] = %[[ZERO]]) -> (f32) {
// CHECK-DAG: %[[ROW:.*]] = affine.apply affine_map<(d0) -> ((d0 floordiv 64) mod 64)>(%[[I]])
// CHECK-DAG: %[[COL:.*]] = affine.apply affine_map<(d0) -> (d0 mod 64)>(%[[I]])
// CHECK: %[[V:.*]] = memref.load %[[X]][%[[ROW]], %[[COL]]]
// CHECK: %[[S:.*]] = arith.addf %[[V]], %[[ACC]] : f32
// CHECK: scf.yield %[[S]]
// CHECK: memref.store %[[PART]], %[[P]][%[[T]]]
// CHECK: } {mapping = [#gpu.thread<x>]}
// CHECK: scf.forall (%[[T1:.*]]) in (128) {
// CHECK: %[[O1:.*]] = affine.apply affine_map<(d0) -> (d0 + 128)>(%[[T1]])
// CHECK: %[[M1:.*]] = memref.load %[[P]][%[[T1]]]
// CHECK: %[[Y1:.*]] = memref.load %[[P]][%[[O1]]]
// CHECK: %[[S1:.*]] = arith.addf %[[Y1]], %[[M1]] : f32
// CHECK: memref.store %[[S1]], %[[P]][%[[T1]]]
// CHECK: } {mapping = [#gpu.thread<x>]}
// CHECK: scf.forall (%{{.*}}) in (64)
// CHECK: affine_map<(d0) -> (d0 + 64)>
// CHECK: scf.forall (%{{.*}}) in (32)
// CHECK: affine_map<(d0) -> (d0 + 32)>
// CHECK: scf.forall (%[[L:.*]]) in (32) {
// CHECK: %[[LV:.*]] = memref.load %[[P]][%[[L]]]
// CHECK: %[[TOTAL:.*]] = gpu.subgroup_reduce add %[[LV]] uniform : (f32) -> f32
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[L]], %c0
// CHECK: scf.if %[[FIRST]] {
// CHECK: %[[OLD:.*]] = memref.load %[[OUT]][]
// CHECK: %[[NEW:.*]] = arith.addf %[[TOTAL]], %[[OLD]] : f32
// CHECK: memref.store %[[NEW]], %[[OUT]][]
// CHECK: } {mapping = [#gpu.thread<x>]}
// CHECK: memref.dealloc %[[P]]
// CHECK: } {mapping = [#gpu.block<x>], mp.gpu_reduction = "block"}
// CHECK-NOT: linalg.reduce
func.func @full_sum(%x: memref<64x64xf32>, %out: memref<f32>) {
  linalg.reduce ins(%x : memref<64x64xf32>) outs(%out : memref<f32>) dimensions = [0, 1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return
}

// -----

// Row maxima of 3x1000, the terms computed in the body (exp(x) * 2) and a
// linalg.index read: 3 blocks, the row from the block, the column from the
// term; the partials start at -inf, the neutral element of maximumf.
// CHECK-LABEL: func.func @row_max
// CHECK: scf.forall (%[[B:.*]]) in (3) {
// CHECK: memref<256xf32, #gpu.address_space<workgroup>>
// CHECK: scf.forall (%[[T:.*]]) in (256) {
// CHECK-DAG: %[[NEG:.*]] = arith.constant 0xFF800000 : f32
// CHECK-DAG: %[[N:.*]] = arith.constant 1000 : index
// CHECK: scf.for %[[I:.*]] = %[[T]] to %[[N]] step %{{.*}} iter_args(%[[ACC:.*]] = %[[NEG]])
// CHECK: %[[ROW:.*]] = affine.apply affine_map<(d0) -> (d0 mod 3)>(%[[B]])
// CHECK: %[[COL:.*]] = affine.apply affine_map<(d0) -> (d0 mod 1000)>(%[[I]])
// CHECK: memref.load %arg0[%[[ROW]], %[[COL]]]
// CHECK: math.exp
// CHECK: %[[J:.*]] = affine.apply affine_map<(d0) -> (d0 mod 1000)>(%[[I]])
// CHECK: arith.index_cast %[[J]]
// CHECK: arith.maximumf %{{.*}}, %[[ACC]] : f32
// CHECK: gpu.subgroup_reduce maximumf
// CHECK: memref.store %{{.*}}, %arg1[%{{.*}}] : memref<3xf32>
// CHECK: } {mapping = [#gpu.block<x>], mp.gpu_reduction = "block"}
// SMALL-LABEL: func.func @row_max
// SMALL: scf.forall (%{{.*}}) in (3) {
// SMALL: memref<64xf32, #gpu.address_space<workgroup>>
// SMALL: scf.forall (%{{.*}}) in (64) {
// SMALL: scf.forall (%{{.*}}) in (32) {
// SMALL: scf.forall (%{{.*}}) in (32) {
// SMALL: gpu.subgroup_reduce maximumf
// SMALL-NOT: in (64)
// SMALL: } {mapping = [#gpu.block<x>], mp.gpu_reduction = "block"}
func.func @row_max(%x: memref<3x1000xf32>, %out: memref<3xf32>) {
  %two = arith.constant 2.0 : f32
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<3x1000xf32>) outs(%out : memref<3xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %e = math.exp %in : f32
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i32
    %jf = arith.sitofp %ji : i32 to f32
    %t = arith.mulf %e, %jf : f32
    %m = arith.maximumf %t, %acc : f32
    linalg.yield %m : f32
  }
  return
}

// -----

// A column sum (reduction outermost, as the bias gradient): 64 terms, fewer
// than min-extent, so the default leaves it; a full reduction of 64 terms
// has no other way onto the GPU: a block of 64 threads (the extent rounded up
// to a power of two, at least a warp).
// CHECK-LABEL: func.func @short
// CHECK: linalg.generic
// CHECK: scf.forall (%{{.*}}) in (1) {
// CHECK: memref<64xi32, #gpu.address_space<workgroup>>
// CHECK: scf.forall (%{{.*}}) in (64) {
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK: iter_args(%{{.*}} = %[[ZERO]]) -> (i32)
// CHECK: arith.ori
// CHECK: scf.forall (%{{.*}}) in (32) {
// CHECK: scf.forall (%{{.*}}) in (32) {
// CHECK: gpu.subgroup_reduce or
// SMALL-LABEL: func.func @short
// SMALL: scf.forall (%{{.*}}) in (128) {
// SMALL: scf.forall (%{{.*}}) in (1) {
func.func @short(%x: memref<64x128xf32>, %bias: memref<1x128xf32>, %flags: memref<64xi32>, %any: memref<i32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (0, j)>], iterator_types = ["reduction", "parallel"]} ins(%x : memref<64x128xf32>) outs(%bias : memref<1x128xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  }
  linalg.reduce ins(%flags : memref<64xi32>) outs(%any : memref<i32>) dimensions = [0]
    (%in: i32, %acc: i32) {
      %o = arith.ori %in, %acc : i32
      linalg.yield %o : i32
    }
  return
}

// -----

// Left alone: an f16 accumulator (the pass does not accumulate in 16 bits),
// two outputs, an accumulator used other than by the combiner, and a dynamic
// size.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: scf.forall
// CHECK-COUNT-4: linalg.
// CHECK-NOT: scf.forall
func.func @left_alone(%h: memref<4096xf16>, %hout: memref<f16>, %x: memref<4096xf32>, %o1: memref<f32>, %o2: memref<f32>, %d: memref<?xf32>) {
  linalg.reduce ins(%h : memref<4096xf16>) outs(%hout : memref<f16>) dimensions = [0]
    (%in: f16, %acc: f16) {
      %s = arith.addf %in, %acc : f16
      linalg.yield %s : f16
    }
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> ()>, affine_map<(i) -> ()>], iterator_types = ["reduction"]} ins(%x : memref<4096xf32>) outs(%o1, %o2 : memref<f32>, memref<f32>) {
  ^bb0(%in: f32, %a: f32, %b: f32):
    %s = arith.addf %in, %a : f32
    %m = arith.maximumf %in, %b : f32
    linalg.yield %s, %m : f32, f32
  }
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> ()>], iterator_types = ["reduction"]} ins(%x : memref<4096xf32>) outs(%o1 : memref<f32>) {
  ^bb0(%in: f32, %a: f32):
    %t = arith.mulf %in, %a : f32
    %s = arith.addf %t, %a : f32
    linalg.yield %s : f32
  }
  linalg.reduce ins(%d : memref<?xf32>) outs(%o1 : memref<f32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return
}

// -----

// Row sums of 8192 rows of 256 (more outputs than max-outputs): one warp per
// row, 8 per block (threads=256), 1024 blocks. Lane l folds the terms l,
// l + 32, ... of its warp's row (consecutive lanes, consecutive columns),
// then each warp's gpu.subgroup_reduce combines the lanes' partials and lane 0
// adds the total to the row's output.
// CHECK-LABEL: func.func @rows
// CHECK-SAME: (%[[X:.*]]: memref<8192x256xf32>, %[[OUT:.*]]: memref<8192xf32>)
// CHECK: scf.forall (%[[B:.*]]) in (1024) {
// CHECK: %[[P:.*]] = memref.alloc() : memref<256xf32, #gpu.address_space<workgroup>>
// CHECK: scf.forall (%[[T:.*]]) in (256) {
// CHECK-DAG: %[[LANE:.*]] = affine.apply affine_map<(d0) -> (d0 mod 32)>(%[[T]])
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG: %[[C32:.*]] = arith.constant 32 : index
// CHECK-DAG: %[[N:.*]] = arith.constant 256 : index
// CHECK: %[[PART:.*]] = scf.for %[[I:.*]] = %[[LANE]] to %[[N]] step %[[C32]] iter_args(%[[ACC:.*]] = %[[ZERO]]) -> (f32) {
// CHECK-DAG: %[[R:.*]] = affine.apply affine_map<(d0, d1) -> ((d0 * 8 + d1 floordiv 32) mod 8192)>(%[[B]], %[[T]])
// CHECK-DAG: %[[COL:.*]] = affine.apply affine_map<(d0) -> (d0 mod 256)>(%[[I]])
// CHECK: %[[V:.*]] = memref.load %[[X]][%[[R]], %[[COL]]]
// CHECK: arith.addf %[[V]], %[[ACC]] : f32
// CHECK: memref.store %[[PART]], %[[P]][%[[T]]]
// CHECK: } {mapping = [#gpu.thread<x>]}
// CHECK: scf.forall (%[[T2:.*]]) in (256) {
// CHECK: %[[PV:.*]] = memref.load %[[P]][%[[T2]]]
// CHECK: %[[TOTAL:.*]] = gpu.subgroup_reduce add %[[PV]] uniform : (f32) -> f32
// CHECK: %[[LANE2:.*]] = affine.apply affine_map<(d0) -> (d0 mod 32)>(%[[T2]])
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[LANE2]], %c0
// CHECK: scf.if %[[FIRST]] {
// CHECK: %[[OI:.*]] = affine.apply affine_map<(d0, d1) -> ((d0 * 8 + d1 floordiv 32) mod 8192)>(%[[B]], %[[T2]])
// CHECK: %[[OLD:.*]] = memref.load %[[OUT]][%[[OI]]]
// CHECK: %[[NEW:.*]] = arith.addf %[[TOTAL]], %[[OLD]] : f32
// CHECK: memref.store %[[NEW]], %[[OUT]][%[[OI]]]
// CHECK: } {mapping = [#gpu.thread<x>]}
// CHECK: memref.dealloc %[[P]]
// CHECK: } {mapping = [#gpu.block<x>], mp.gpu_reduction = "warp"}
// CHECK-NOT: linalg.reduce
// OFF-LABEL: func.func @rows
// OFF-NOT: scf.forall
// OFF: linalg.reduce
// OFF-NOT: scf.forall
func.func @rows(%x: memref<8192x256xf32>, %out: memref<8192xf32>) {
  linalg.reduce ins(%x : memref<8192x256xf32>) outs(%out : memref<8192xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return
}

// -----

// A softmax's sum of exp(x - max) over 5001 rows of 300 (the row maximum read
// per row, x per term) into outputs a fill zeroed: 626 blocks of 8 warps, the
// last one's 7 warps past row 5000 fold row 5000 again (the row clamped) and
// store nothing; lane 0 adds the total to the fill's zero, and the fill goes.
// CHECK-LABEL: func.func @softmax_sum
// CHECK-SAME: (%[[X:.*]]: memref<5001x300xf32>, %[[MAX:.*]]: memref<5001xf32>
// CHECK-NOT: linalg.fill
// CHECK: scf.forall (%[[B:.*]]) in (626) {
// CHECK: scf.forall (%[[T:.*]]) in (256) {
// CHECK: %[[ROW:.*]] = affine.min affine_map<(d0, d1) -> (d0 * 8 + d1 floordiv 32, 5000)>(%[[B]], %[[T]])
// CHECK: scf.for
// CHECK: memref.load %[[X]]
// CHECK: memref.load %[[MAX]]
// CHECK: arith.subf
// CHECK: math.exp
// CHECK: scf.forall (%[[T2:.*]]) in (256) {
// CHECK: gpu.subgroup_reduce add
// CHECK-DAG: %[[OUTPUT:.*]] = affine.apply affine_map<(d0, d1) -> (d0 * 8 + d1 floordiv 32)>(%[[B]], %[[T2]])
// CHECK-DAG: %[[LANE0:.*]] = arith.cmpi eq
// CHECK-DAG: %[[ROWS:.*]] = arith.constant 5001 : index
// CHECK: %[[IN:.*]] = arith.cmpi ult, %[[OUTPUT]], %[[ROWS]] : index
// CHECK: %[[STORE:.*]] = arith.andi %[[LANE0]], %[[IN]] : i1
// CHECK: scf.if %[[STORE]] {
// CHECK-NEXT: %[[I:.*]] = affine.apply
// CHECK-NEXT: %[[NEW:.*]] = arith.addf %{{.*}}, %cst : f32
// CHECK-NEXT: memref.store %[[NEW]], %{{.*}}[%[[I]]] : memref<5001xf32>
// OFF-LABEL: func.func @softmax_sum
// OFF: linalg.fill
// OFF-NEXT: linalg.generic
func.func @softmax_sum(%x: memref<5001x300xf32>, %max: memref<5001xf32>) -> memref<5001xf32> {
  %cst = arith.constant 0.0 : f32
  %out = memref.alloc() : memref<5001xf32>
  linalg.fill ins(%cst : f32) outs(%out : memref<5001xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]} ins(%x, %max : memref<5001x300xf32>, memref<5001xf32>) outs(%out : memref<5001xf32>) {
  ^bb0(%in: f32, %m: f32, %acc: f32):
    %d = arith.subf %in, %m : f32
    %e = math.exp %d : f32
    %s = arith.addf %e, %acc : f32
    linalg.yield %s : f32
  }
  return %out : memref<5001xf32>
}

// -----

// Three reductions without a warp per output: 8192 column sums (consecutive
// columns are consecutive outputs: one thread per column reads them
// coalesced), 8192 rows of 255 (fewer terms than warp-min-extent), and 8192
// products of f64 terms (wider than a shuffle).
// With warp-min-extent=32 the rows of 255 take a warp each; the others stay.
// CHECK-LABEL: func.func @no_warps
// LOW-LABEL: func.func @no_warps
// LOW: linalg.reduce ins(%{{.*}} : memref<256x8192xf32>)
// LOW: scf.forall (%{{.*}}) in (1024)
// LOW: gpu.subgroup_reduce add
// LOW: } {mapping = [#gpu.block<x>], mp.gpu_reduction = "warp"}
// LOW-NEXT: linalg.reduce ins(%{{.*}} : memref<8192x256xf64>)
// CHECK-NOT: scf.forall
// CHECK-COUNT-3: linalg.reduce
// CHECK-NOT: scf.forall
func.func @no_warps(%x: memref<256x8192xf32>, %cols: memref<8192xf32>, %y: memref<8192x255xf32>, %rows: memref<8192xf32>, %w: memref<8192x256xf64>, %prods: memref<8192xf64>) {
  linalg.reduce ins(%x : memref<256x8192xf32>) outs(%cols : memref<8192xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  linalg.reduce ins(%y : memref<8192x255xf32>) outs(%rows : memref<8192xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  linalg.reduce ins(%w : memref<8192x256xf64>) outs(%prods : memref<8192xf64>) dimensions = [1]
    (%in: f64, %acc: f64) {
      %p = arith.mulf %in, %acc : f64
      linalg.yield %p : f64
    }
  return
}

// -----

// f64 partials do not fit a 32-bit shuffle: the tree goes down to two
// elements and thread 0 combines them (a forall of two threads, the second
// idle), with the neutral element 1 of mulf.
// CHECK-LABEL: func.func @wide
// CHECK: scf.forall (%{{.*}}) in (1) {
// CHECK: memref<64xf64, #gpu.address_space<workgroup>>
// CHECK: iter_args(%{{.*}} = %cst{{.*}}) -> (f64)
// CHECK: scf.forall (%{{.*}}) in (32) {
// CHECK: scf.forall (%{{.*}}) in (16) {
// CHECK: scf.forall (%{{.*}}) in (8) {
// CHECK: scf.forall (%{{.*}}) in (4) {
// CHECK: scf.forall (%{{.*}}) in (2) {
// CHECK: affine_map<(d0) -> (d0 + 2)>
// CHECK: scf.forall (%[[T:.*]]) in (2) {
// CHECK: arith.cmpi eq, %[[T]], %c0
// CHECK: scf.if
// CHECK: %[[A:.*]] = memref.load %{{.*}}[%c0
// CHECK: %[[B:.*]] = memref.load %{{.*}}[%c1
// CHECK: arith.mulf %[[B]], %[[A]] : f64
// CHECK-NOT: gpu.subgroup_reduce
func.func @wide(%x: memref<50xf64>, %out: memref<f64>) {
  linalg.reduce ins(%x : memref<50xf64>) outs(%out : memref<f64>) dimensions = [0]
    (%in: f64, %acc: f64) {
      %p = arith.mulf %in, %acc : f64
      linalg.yield %p : f64
    }
  return
}

// -----

// A cross-entropy loss subtracts each term from the accumulator: each thread
// folds its terms into 0 with the body's subf (its partial is minus their
// sum), the tree and the warp add the partials, and thread 0 adds the total
// to the output.
// CHECK-LABEL: func.func @subtracted_terms
// CHECK-SAME: (%[[Y:.*]]: memref<64x10xf32>, %[[P:.*]]: memref<64x10xf32>, %[[OUT:.*]]: memref<f32>)
// CHECK: scf.forall (%{{.*}}) in (1) {
// CHECK: scf.forall (%[[T:.*]]) in (256) {
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: scf.for %{{.*}} = %[[T]] to %c640 step %c256 iter_args(%[[ACC:.*]] = %[[ZERO]]) -> (f32) {
// CHECK: %[[LOG:.*]] = math.log
// CHECK: %[[TERM:.*]] = arith.mulf %{{.*}}, %[[LOG]] : f32
// CHECK: %[[S:.*]] = arith.subf %[[ACC]], %[[TERM]] : f32
// CHECK: scf.yield %[[S]]
// CHECK: scf.forall (%[[T1:.*]]) in (128) {
// CHECK: %[[M1:.*]] = memref.load
// CHECK: %[[Y1:.*]] = memref.load
// CHECK: arith.addf %[[M1]], %[[Y1]] : f32
// CHECK: gpu.subgroup_reduce add
// CHECK: scf.if
// CHECK: %[[OLD:.*]] = memref.load %[[OUT]][]
// CHECK: arith.addf %[[OLD]], %{{.*}} : f32
// CHECK-NOT: arith.subf
// CHECK: } {mapping = [#gpu.block<x>], mp.gpu_reduction = "block"}
// CHECK-NOT: linalg.generic
func.func @subtracted_terms(%y: memref<64x10xf32>, %p: memref<64x10xf32>, %out: memref<f32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>],
                  iterator_types = ["reduction", "reduction"]}
      ins(%y, %p : memref<64x10xf32>, memref<64x10xf32>) outs(%out : memref<f32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %l = math.log %b : f32
    %t = arith.mulf %a, %l : f32
    %s = arith.subf %acc, %t : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Subtracting the accumulator from a term is no reduction the pass knows.
// CHECK-LABEL: func.func @accumulator_subtracted
// CHECK-NOT: scf.forall
// CHECK: linalg.generic
func.func @accumulator_subtracted(%x: memref<4096xf32>, %out: memref<f32>) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>],
                  iterator_types = ["reduction"]}
      ins(%x : memref<4096xf32>) outs(%out : memref<f32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.subf %a, %acc : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// The zeros a fill writes into the output just before are folded: thread 0
// adds the total to the fill's value (the same sum), without loading the
// output, and the fill goes. A fill with a read of the output in between
// stays, and the total is added to what the output holds.
// CHECK-LABEL: func.func @filled
// CHECK-NOT: linalg.fill
// CHECK: scf.forall
// CHECK: %[[TOTAL:.*]] = gpu.subgroup_reduce add
// CHECK: scf.if
// CHECK-NEXT: %[[I:.*]] = affine.apply
// CHECK-NEXT: %[[NEW:.*]] = arith.addf %[[TOTAL]], %cst : f32
// CHECK-NEXT: memref.store %[[NEW]], %{{.*}}[%[[I]]] : memref<128xf32>
// CHECK: } {mapping = [#gpu.block<x>], mp.gpu_reduction = "block"}
// CHECK-NEXT: return
func.func @filled(%x: memref<4096x128xf32>) -> memref<128xf32> {
  %cst = arith.constant 0.0 : f32
  %out = memref.alloc() : memref<128xf32>
  linalg.fill ins(%cst : f32) outs(%out : memref<128xf32>)
  linalg.reduce ins(%x : memref<4096x128xf32>) outs(%out : memref<128xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %out : memref<128xf32>
}

// CHECK-LABEL: func.func @read_between
// CHECK: linalg.fill
// CHECK: memref.copy
// CHECK: scf.forall
// CHECK: scf.if
// CHECK-NEXT: affine.apply
// CHECK-NEXT: %[[OLD:.*]] = memref.load
// CHECK-NEXT: arith.addf %{{.*}}, %[[OLD]] : f32
func.func @read_between(%x: memref<4096x128xf32>, %seen: memref<128xf32>) -> memref<128xf32> {
  %cst = arith.constant 0.0 : f32
  %out = memref.alloc() : memref<128xf32>
  linalg.fill ins(%cst : f32) outs(%out : memref<128xf32>)
  memref.copy %out, %seen : memref<128xf32> to memref<128xf32>
  linalg.reduce ins(%x : memref<4096x128xf32>) outs(%out : memref<128xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %out : memref<128xf32>
}

// -----

// A finite check (an OR of a predicate into a 0-d i1 flag) needs no tree:
// it becomes a parallel loop over its input, one iteration per element, that
// sets the flag where the predicate holds; the flag's fill stays. A dynamic
// size is taken too (the loop's bound is the dimension's size).
// CHECK-LABEL: func.func @finite_check
// CHECK-SAME: (%[[G:.*]]: memref<64x784xf32>, %[[D:.*]]: memref<?xf32>, %[[FLAG:.*]]: memref<i1>)
// CHECK: linalg.fill ins(%{{.*}} : i1) outs(%[[FLAG]] : memref<i1>)
// CHECK-DAG: %[[C64:.*]] = arith.constant 64 : index
// CHECK-DAG: %[[C784:.*]] = arith.constant 784 : index
// CHECK: scf.parallel (%[[I:.*]], %[[J:.*]]) = (%{{.*}}, %{{.*}}) to (%[[C64]], %[[C784]])
// CHECK: %[[X:.*]] = memref.load %[[G]][%[[I]], %[[J]]] : memref<64x784xf32>
// CHECK: %[[ABS:.*]] = math.absf %[[X]] : f32
// CHECK: %[[FINITE:.*]] = arith.cmpf olt, %[[ABS]], %{{.*}} : f32
// CHECK: %[[NOTFINITE:.*]] = arith.xori %[[FINITE]], %{{.*}} : i1
// CHECK: scf.if %[[NOTFINITE]] {
// CHECK: %[[TRUE:.*]] = arith.constant true
// CHECK: memref.store %[[TRUE]], %[[FLAG]][] : memref<i1>
// CHECK: %[[N:.*]] = memref.dim %[[D]], %{{.*}} : memref<?xf32>
// CHECK: scf.parallel (%[[K:.*]]) = (%{{.*}}) to (%[[N]])
// CHECK: memref.load %[[D]][%[[K]]] : memref<?xf32>
// CHECK: scf.if
// CHECK: memref.store %{{.*}}, %[[FLAG]][] : memref<i1>
// CHECK-NOT: scf.forall
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @finite_check(%g: memref<64x784xf32>, %d: memref<?xf32>, %flag: memref<i1>) {
  %false = arith.constant false
  %true = arith.constant true
  %inf = arith.constant 0x7F800000 : f32
  linalg.fill ins(%false : i1) outs(%flag : memref<i1>)
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%g : memref<64x784xf32>) outs(%flag : memref<i1>) {
  ^bb0(%in: f32, %acc: i1):
    %a = math.absf %in : f32
    %f = arith.cmpf olt, %a, %inf : f32
    %bad = arith.xori %f, %true : i1
    %o = arith.ori %acc, %bad : i1
    linalg.yield %o : i1
  }
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> ()>], iterator_types = ["reduction"]} ins(%d : memref<?xf32>) outs(%flag : memref<i1>) {
  ^bb0(%in: f32, %acc: i1):
    %a = math.absf %in : f32
    %f = arith.cmpf olt, %a, %inf : f32
    %bad = arith.xori %f, %true : i1
    %o = arith.ori %bad, %acc : i1
    linalg.yield %o : i1
  }
  return
}

// -----

// A layer norm's weight and bias gradients: column sums of dy * xhat and of
// dy over the same 7168 rows, into buffers the function allocates and fills
// with zeros. One kernel computes both: each thread's loop loads dy once and
// folds both partials, each into its own workgroup buffer; the tree and the
// warp reduce both, and thread 0 stores both totals (the fills folded).
// CHECK-LABEL: func.func @siblings
// CHECK-SAME: (%[[DY:.*]]: memref<7168x32xf32>, %[[XH:.*]]: memref<7168x32xf32>)
// CHECK: %[[W:.*]] = memref.alloc() : memref<32xf32>
// CHECK: %[[B:.*]] = memref.alloc() : memref<32xf32>
// CHECK-NOT: linalg.fill
// CHECK: scf.forall (%[[COL:.*]]) in (32) {
// CHECK: %[[PW:.*]] = memref.alloc() : memref<256xf32, #gpu.address_space<workgroup>>
// CHECK: %[[PB:.*]] = memref.alloc() : memref<256xf32, #gpu.address_space<workgroup>>
// CHECK: scf.forall (%[[T:.*]]) in (256) {
// CHECK: %[[SUMS:.*]]:2 = scf.for %{{.*}} = %[[T]] to %c7168 step %c256 iter_args(%[[AW:.*]] = %{{.*}}, %[[AB:.*]] = %{{.*}}) -> (f32, f32) {
// CHECK: %[[D:.*]] = memref.load %[[DY]]
// CHECK: %[[X:.*]] = memref.load %[[XH]]
// CHECK: %[[P:.*]] = arith.mulf %[[D]], %[[X]]
// CHECK: %[[NW:.*]] = arith.addf %[[P]], %[[AW]]
// CHECK: %[[NB:.*]] = arith.addf %[[D]], %[[AB]]
// CHECK: scf.yield %[[NW]], %[[NB]]
// CHECK: memref.store %[[SUMS]]#0, %[[PW]][%[[T]]]
// CHECK: memref.store %[[SUMS]]#1, %[[PB]][%[[T]]]
// CHECK-COUNT-3: scf.forall
// CHECK: scf.forall (%[[L:.*]]) in (32) {
// CHECK: gpu.subgroup_reduce add
// CHECK: gpu.subgroup_reduce add
// CHECK: scf.if
// CHECK: memref.store %{{.*}}, %[[W]][
// CHECK: memref.store %{{.*}}, %[[B]][
// CHECK: } {mapping = [#gpu.block<x>], mp.gpu_reduction = "block"}
// CHECK-NOT: scf.forall
// CHECK: return %[[W]], %[[B]]
// With siblings=false, two kernels.
// APART-LABEL: func.func @siblings
// APART-COUNT-2: mp.gpu_reduction = "block"
func.func @siblings(%dy: memref<7168x32xf32>, %xh: memref<7168x32xf32>) -> (memref<32xf32>, memref<32xf32>) {
  %zero = arith.constant 0.0 : f32
  %w = memref.alloc() : memref<32xf32>
  linalg.fill ins(%zero : f32) outs(%w : memref<32xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>], iterator_types = ["reduction", "parallel"]} ins(%dy, %xh : memref<7168x32xf32>, memref<7168x32xf32>) outs(%w : memref<32xf32>) {
  ^bb0(%d: f32, %x: f32, %acc: f32):
    %p = arith.mulf %d, %x : f32
    %s = arith.addf %p, %acc : f32
    linalg.yield %s : f32
  }
  %b = memref.alloc() : memref<32xf32>
  linalg.fill ins(%zero : f32) outs(%b : memref<32xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>], iterator_types = ["reduction", "parallel"]} ins(%dy : memref<7168x32xf32>) outs(%b : memref<32xf32>) {
  ^bb0(%d: f32, %acc: f32):
    %s = arith.addf %d, %acc : f32
    linalg.yield %s : f32
  }
  return %w, %b : memref<32xf32>, memref<32xf32>
}

// -----

// Reductions that stay apart, each its own kernel: the second reads the
// first one's output (@reads_result), runs over other loops (@other_loops),
// writes a function argument, which may be the other's input (@argument),
// or something between them writes memory (@store_between).
// CHECK-LABEL: func.func @reads_result
// CHECK-COUNT-2: mp.gpu_reduction = "block"
func.func @reads_result(%x: memref<4096xf32>) -> (memref<f32>, memref<f32>) {
  %a = memref.alloc() : memref<f32>
  linalg.reduce ins(%x : memref<4096xf32>) outs(%a : memref<f32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  %b = memref.alloc() : memref<f32>
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> ()>, affine_map<(i) -> ()>], iterator_types = ["reduction"]} ins(%x, %a : memref<4096xf32>, memref<f32>) outs(%b : memref<f32>) {
  ^bb0(%in: f32, %mean: f32, %acc: f32):
    %d = arith.subf %in, %mean : f32
    %s = arith.addf %d, %acc : f32
    linalg.yield %s : f32
  }
  return %a, %b : memref<f32>, memref<f32>
}

// -----

// CHECK-LABEL: func.func @other_loops
// CHECK-COUNT-2: mp.gpu_reduction = "block"
func.func @other_loops(%x: memref<4096xf32>, %y: memref<2048x2xf32>) -> (memref<f32>, memref<f32>) {
  %a = memref.alloc() : memref<f32>
  linalg.reduce ins(%x : memref<4096xf32>) outs(%a : memref<f32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  %b = memref.alloc() : memref<f32>
  linalg.reduce ins(%y : memref<2048x2xf32>) outs(%b : memref<f32>) dimensions = [0, 1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %a, %b : memref<f32>, memref<f32>
}

// -----

// CHECK-LABEL: func.func @argument
// CHECK-COUNT-2: mp.gpu_reduction = "block"
func.func @argument(%x: memref<4096xf32>, %out: memref<f32>) -> memref<f32> {
  %a = memref.alloc() : memref<f32>
  linalg.reduce ins(%x : memref<4096xf32>) outs(%a : memref<f32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  linalg.reduce ins(%x : memref<4096xf32>) outs(%out : memref<f32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %m = arith.maximumf %in, %acc : f32
      linalg.yield %m : f32
    }
  return %a : memref<f32>
}

// -----

// CHECK-LABEL: func.func @store_between
// CHECK-COUNT-2: mp.gpu_reduction = "block"
func.func @store_between(%x: memref<4096xf32>, %v: f32) -> (memref<f32>, memref<f32>) {
  %c7 = arith.constant 7 : index
  %a = memref.alloc() : memref<f32>
  linalg.reduce ins(%x : memref<4096xf32>) outs(%a : memref<f32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  memref.store %v, %x[%c7] : memref<4096xf32>
  %b = memref.alloc() : memref<f32>
  linalg.reduce ins(%x : memref<4096xf32>) outs(%b : memref<f32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %m = arith.maximumf %in, %acc : f32
      linalg.yield %m : f32
    }
  return %a, %b : memref<f32>, memref<f32>
}

// -----

// A bias gradient of a loss-scaled step: a block reduction over 12544 terms
// per element, its unscaling (the elementwise consumer) and its finite
// check. The thread that stores a total also unscales it and sets the flag
// where it is not finite; the sum itself is freed unread, so it is not
// stored. The unscaled gradient's allocation and the flag's fill move before
// the kernel; neither the consumer nor the check is a loop of its own.
// CHECK-LABEL: func.func @unscaled_bias_grad
// CHECK-SAME: (%[[DY:.*]]: memref<64x8x14x14xf16>, %[[SCALE:.*]]: memref<f32>, %[[FLAG:.*]]: memref<i1>)
// CHECK: %[[SUM:.*]] = memref.alloc() : memref<8xf32>
// CHECK: %[[GRAD:.*]] = memref.alloc() : memref<8xf32>
// CHECK: linalg.fill ins(%{{.*}} : i1) outs(%[[FLAG]] : memref<i1>)
// CHECK: scf.forall (%[[B:.*]]) in (8) {
// CHECK: gpu.subgroup_reduce add
// CHECK: scf.if
// CHECK: %[[TOTAL:.*]] = arith.addf
// CHECK: %[[S:.*]] = memref.load %[[SCALE]][] : memref<f32>
// CHECK: %[[INV:.*]] = arith.divf %{{.*}}, %[[S]] : f32
// CHECK: %[[G:.*]] = arith.mulf %[[TOTAL]], %[[INV]] : f32
// CHECK: memref.store %[[G]], %[[GRAD]][%{{.*}}] : memref<8xf32>
// CHECK: %[[ABS:.*]] = math.absf %[[TOTAL]] : f32
// CHECK: %[[FINITE:.*]] = arith.cmpf olt, %[[ABS]]
// CHECK: %[[NOTFINITE:.*]] = arith.xori %[[FINITE]]
// CHECK: scf.if %[[NOTFINITE]] {
// CHECK: memref.store %{{.*}}, %[[FLAG]][] : memref<i1>
// CHECK: } {mapping = [#gpu.block<x>], mp.gpu_reduction = "block"}
// CHECK-NOT: memref.store %{{.*}}, %[[SUM]]
// CHECK-NOT: linalg.generic
// CHECK-NOT: scf.parallel
// CHECK: memref.dealloc %[[SUM]]
// CHECK: return %[[GRAD]]
// With epilogues=false, the consumer stays and the check is a loop.
// NO-EPILOGUE-LABEL: func.func @unscaled_bias_grad
// NO-EPILOGUE: mp.gpu_reduction = "block"
// NO-EPILOGUE: linalg.fill ins(%{{.*}} : i1)
// NO-EPILOGUE: linalg.generic
// NO-EPILOGUE: arith.mulf
// NO-EPILOGUE: scf.parallel
func.func @unscaled_bias_grad(%dy: memref<64x8x14x14xf16>, %scale: memref<f32>, %flag: memref<i1>) -> memref<8xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %inf = arith.constant 0x7F800000 : f32
  %true = arith.constant true
  %false = arith.constant false
  %sum = memref.alloc() : memref<8xf32>
  linalg.fill ins(%zero : f32) outs(%sum : memref<8xf32>)
  linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (c)>], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%dy : memref<64x8x14x14xf16>) outs(%sum : memref<8xf32>) {
  ^bb0(%in: f16, %acc: f32):
    %e = arith.extf %in : f16 to f32
    %s = arith.addf %e, %acc : f32
    linalg.yield %s : f32
  }
  linalg.fill ins(%false : i1) outs(%flag : memref<i1>)
  %grad = memref.alloc() : memref<8xf32>
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> ()>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%sum, %scale : memref<8xf32>, memref<f32>) outs(%grad : memref<8xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %inv = arith.divf %one, %s : f32
    %g = arith.mulf %in, %inv : f32
    linalg.yield %g : f32
  }
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> ()>], iterator_types = ["reduction"]} ins(%sum : memref<8xf32>) outs(%flag : memref<i1>) {
  ^bb0(%in: f32, %acc: i1):
    %a = math.absf %in : f32
    %f = arith.cmpf olt, %a, %inf : f32
    %bad = arith.xori %f, %true : i1
    %o = arith.ori %acc, %bad : i1
    linalg.yield %o : i1
  }
  memref.dealloc %sum : memref<8xf32>
  return %grad : memref<8xf32>
}

// -----

// A filter gradient summed over 64 images (too few terms for a block) with
// its unscaling and finite check: one thread per element folds its 64 terms
// in order into the fill's value (the fill goes), then unscales the sum and
// checks it. Another short reduction whose consumer is no finite check (a
// mean) keeps the parallel-loop path, where its consumer fuses with it.
// CHECK-LABEL: func.func @short_unscaled
// CHECK-SAME: (%[[X:.*]]: memref<64x72xf32>, %[[SCALE:.*]]: memref<f32>, %[[FLAG:.*]]: memref<i1>, %[[Y:.*]]: memref<64x72xf32>)
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[SUM0:.*]] = memref.alloc() : memref<72xf32>
// CHECK-NEXT: %[[GRAD:.*]] = memref.alloc() : memref<72xf32>
// CHECK-NEXT: linalg.fill ins(%{{.*}} : i1) outs(%[[FLAG]] : memref<i1>)
// CHECK: scf.parallel (%[[O:.*]]) = (%{{.*}}) to (%c72)
// CHECK: %[[SUM:.*]] = scf.for %[[T:.*]] = %{{.*}} to %c64 step %{{.*}} iter_args(%[[ACC:.*]] = %[[ZERO]]) -> (f32) {
// CHECK: %[[V:.*]] = memref.load %[[X]][%{{.*}}, %{{.*}}] : memref<64x72xf32>
// CHECK: arith.addf %[[V]], %[[ACC]] : f32
// CHECK: memref.load %[[SCALE]][]
// CHECK: %[[G:.*]] = arith.mulf %[[SUM]], %{{.*}} : f32
// CHECK: memref.store %[[G]], %[[GRAD]][%{{.*}}] : memref<72xf32>
// CHECK: math.absf %[[SUM]]
// CHECK: memref.store %{{.*}}, %[[FLAG]][] : memref<i1>
// CHECK: memref.dealloc %[[SUM0]]
// CHECK: linalg.fill
// CHECK: linalg.generic {{.*}}iterator_types = ["reduction", "parallel"]
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel"]
// CHECK: arith.divf
// CHECK: return
func.func @short_unscaled(%x: memref<64x72xf32>, %scale: memref<f32>, %flag: memref<i1>, %y: memref<64x72xf32>) -> (memref<72xf32>, memref<72xf32>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %n = arith.constant 64.0 : f32
  %inf = arith.constant 0x7F800000 : f32
  %true = arith.constant true
  %false = arith.constant false
  %sum = memref.alloc() : memref<72xf32>
  linalg.fill ins(%zero : f32) outs(%sum : memref<72xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>], iterator_types = ["reduction", "parallel"]} ins(%x : memref<64x72xf32>) outs(%sum : memref<72xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  }
  linalg.fill ins(%false : i1) outs(%flag : memref<i1>)
  %grad = memref.alloc() : memref<72xf32>
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> ()>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%sum, %scale : memref<72xf32>, memref<f32>) outs(%grad : memref<72xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %inv = arith.divf %one, %s : f32
    %g = arith.mulf %in, %inv : f32
    linalg.yield %g : f32
  }
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> ()>], iterator_types = ["reduction"]} ins(%sum : memref<72xf32>) outs(%flag : memref<i1>) {
  ^bb0(%in: f32, %acc: i1):
    %a = math.absf %in : f32
    %f = arith.cmpf olt, %a, %inf : f32
    %bad = arith.xori %f, %true : i1
    %o = arith.ori %acc, %bad : i1
    linalg.yield %o : i1
  }
  memref.dealloc %sum : memref<72xf32>
  %ysum = memref.alloc() : memref<72xf32>
  linalg.fill ins(%zero : f32) outs(%ysum : memref<72xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>], iterator_types = ["reduction", "parallel"]} ins(%y : memref<64x72xf32>) outs(%ysum : memref<72xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  }
  %mean = memref.alloc() : memref<72xf32>
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%ysum : memref<72xf32>) outs(%mean : memref<72xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.divf %in, %n : f32
    linalg.yield %m : f32
  }
  memref.dealloc %ysum : memref<72xf32>
  return %grad, %mean : memref<72xf32>, memref<72xf32>
}

// -----

// Row means of 8192 rows of 256 (warps, one per row): lane 0 of each warp
// divides its row's sum and stores the mean; the sums, read after, are
// stored as well.
// CHECK-LABEL: func.func @row_means
// CHECK-SAME: (%[[X:.*]]: memref<8192x256xf32>)
// CHECK: %[[SUMS:.*]] = memref.alloc() : memref<8192xf32>
// CHECK-NEXT: %[[MEANS:.*]] = memref.alloc() : memref<8192xf32>
// CHECK: gpu.subgroup_reduce add
// CHECK: scf.if
// CHECK: %[[SUM:.*]] = arith.addf
// CHECK: memref.store %[[SUM]], %[[SUMS]][
// CHECK: %[[MEAN:.*]] = arith.divf %[[SUM]], %{{.*}} : f32
// CHECK: memref.store %[[MEAN]], %[[MEANS]][
// CHECK: } {mapping = [#gpu.block<x>], mp.gpu_reduction = "warp"}
// CHECK-NOT: linalg.generic
// CHECK: return %[[SUMS]], %[[MEANS]]
func.func @row_means(%x: memref<8192x256xf32>) -> (memref<8192xf32>, memref<8192xf32>) {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 256.0 : f32
  %sums = memref.alloc() : memref<8192xf32>
  linalg.fill ins(%zero : f32) outs(%sums : memref<8192xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<8192x256xf32>) outs(%sums : memref<8192xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  }
  %means = memref.alloc() : memref<8192xf32>
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%sums : memref<8192xf32>) outs(%means : memref<8192xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.divf %in, %n : f32
    linalg.yield %m : f32
  }
  return %sums, %means : memref<8192xf32>, memref<8192xf32>
}

// -----

// Sibling block reductions: the first's consumer is computed by their
// kernel; the second's reads the first's output, which the same kernel
// stores, so it stays an op of its own.
// CHECK-LABEL: func.func @sibling_reads_other
// CHECK-SAME: (%[[DY:.*]]: memref<7168x32xf32>, %[[XH:.*]]: memref<7168x32xf32>)
// CHECK: %[[W:.*]] = memref.alloc() : memref<32xf32>
// CHECK-NEXT: %[[HALF:.*]] = memref.alloc() : memref<32xf32>
// CHECK-NEXT: %[[B:.*]] = memref.alloc() : memref<32xf32>
// CHECK: scf.forall
// CHECK: scf.if
// CHECK: memref.store %{{.*}}, %[[W]][
// CHECK: %[[H:.*]] = arith.mulf
// CHECK: memref.store %[[H]], %[[HALF]][
// CHECK: memref.store %{{.*}}, %[[B]][
// CHECK: mp.gpu_reduction = "block"
// CHECK-NOT: mp.gpu_reduction
// CHECK: %[[BOTH:.*]] = memref.alloc() : memref<32xf32>
// CHECK: linalg.generic {{.*}} ins(%[[B]], %[[W]] : {{.*}}) outs(%[[BOTH]] :
// CHECK: return %[[HALF]], %[[BOTH]]
func.func @sibling_reads_other(%dy: memref<7168x32xf32>, %xh: memref<7168x32xf32>) -> (memref<32xf32>, memref<32xf32>) {
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %w = memref.alloc() : memref<32xf32>
  linalg.fill ins(%zero : f32) outs(%w : memref<32xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>], iterator_types = ["reduction", "parallel"]} ins(%dy, %xh : memref<7168x32xf32>, memref<7168x32xf32>) outs(%w : memref<32xf32>) {
  ^bb0(%d: f32, %x: f32, %acc: f32):
    %p = arith.mulf %d, %x : f32
    %s = arith.addf %p, %acc : f32
    linalg.yield %s : f32
  }
  %b = memref.alloc() : memref<32xf32>
  linalg.fill ins(%zero : f32) outs(%b : memref<32xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>], iterator_types = ["reduction", "parallel"]} ins(%dy : memref<7168x32xf32>) outs(%b : memref<32xf32>) {
  ^bb0(%d: f32, %acc: f32):
    %s = arith.addf %d, %acc : f32
    linalg.yield %s : f32
  }
  %wh = memref.alloc() : memref<32xf32>
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%w : memref<32xf32>) outs(%wh : memref<32xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.mulf %in, %half : f32
    linalg.yield %m : f32
  }
  %both = memref.alloc() : memref<32xf32>
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%b, %w : memref<32xf32>, memref<32xf32>) outs(%both : memref<32xf32>) {
  ^bb0(%x: f32, %y: f32, %out: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  return %wh, %both : memref<32xf32>, memref<32xf32>
}

// -----

// Between a gradient's sum and its finite check, a kernel already tiled (a
// GEMM whose epilogue checks its own gradient) sets the same flag: it only
// stores `true`, so the sum's check may still be computed where the sum is
// stored. A kernel that reads the flag in between keeps the check a loop.
// CHECK-LABEL: func.func @flag_set_between
// CHECK-SAME: (%[[X:.*]]: memref<64x72xf32>, %[[SCALE:.*]]: memref<f32>, %[[FLAG:.*]]: memref<i1>, %[[G:.*]]: memref<8xf32>, %[[SEEN:.*]]: memref<8xi1>)
// CHECK: scf.parallel (%[[O:.*]]) = (%{{.*}}) to (%c72)
// CHECK: scf.for
// CHECK: math.absf
// CHECK: memref.store %{{.*}}, %[[FLAG]][] : memref<i1>
// CHECK: scf.forall
// CHECK: memref.store %{{.*}}, %[[FLAG]][] : memref<i1>
// CHECK: linalg.generic {{.*}}iterator_types = ["reduction", "parallel"]
// CHECK: scf.forall
// CHECK: memref.load %[[FLAG]][] : memref<i1>
// CHECK: scf.parallel
// CHECK: math.absf
// CHECK: return
func.func @flag_set_between(%x: memref<64x72xf32>, %scale: memref<f32>, %flag: memref<i1>, %g: memref<8xf32>, %seen: memref<8xi1>) -> (memref<72xf32>, memref<72xf32>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %inf = arith.constant 0x7F800000 : f32
  %true = arith.constant true
  %sum = memref.alloc() : memref<72xf32>
  linalg.fill ins(%zero : f32) outs(%sum : memref<72xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>], iterator_types = ["reduction", "parallel"]} ins(%x : memref<64x72xf32>) outs(%sum : memref<72xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  }
  scf.forall (%i) in (8) {
    %v = memref.load %g[%i] : memref<8xf32>
    %a = math.absf %v : f32
    %f = arith.cmpf olt, %a, %inf : f32
    %bad = arith.xori %f, %true : i1
    scf.if %bad {
      memref.store %true, %flag[] : memref<i1>
    }
  } {mapping = [#gpu.block<x>]}
  %grad = memref.alloc() : memref<72xf32>
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> ()>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%sum, %scale : memref<72xf32>, memref<f32>) outs(%grad : memref<72xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %inv = arith.divf %one, %s : f32
    %r = arith.mulf %in, %inv : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> ()>], iterator_types = ["reduction"]} ins(%sum : memref<72xf32>) outs(%flag : memref<i1>) {
  ^bb0(%in: f32, %acc: i1):
    %a = math.absf %in : f32
    %f = arith.cmpf olt, %a, %inf : f32
    %bad = arith.xori %f, %true : i1
    %o = arith.ori %acc, %bad : i1
    linalg.yield %o : i1
  }
  memref.dealloc %sum : memref<72xf32>
  %sum2 = memref.alloc() : memref<72xf32>
  linalg.fill ins(%zero : f32) outs(%sum2 : memref<72xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>], iterator_types = ["reduction", "parallel"]} ins(%x : memref<64x72xf32>) outs(%sum2 : memref<72xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  }
  scf.forall (%i) in (8) {
    %f = memref.load %flag[] : memref<i1>
    memref.store %f, %seen[%i] : memref<8xi1>
  } {mapping = [#gpu.block<x>]}
  %grad2 = memref.alloc() : memref<72xf32>
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> ()>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%sum2, %scale : memref<72xf32>, memref<f32>) outs(%grad2 : memref<72xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %inv = arith.divf %one, %s : f32
    %r = arith.mulf %in, %inv : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> ()>], iterator_types = ["reduction"]} ins(%sum2 : memref<72xf32>) outs(%flag : memref<i1>) {
  ^bb0(%in: f32, %acc: i1):
    %a = math.absf %in : f32
    %f = arith.cmpf olt, %a, %inf : f32
    %bad = arith.xori %f, %true : i1
    %o = arith.ori %acc, %bad : i1
    linalg.yield %o : i1
  }
  memref.dealloc %sum2 : memref<72xf32>
  return %grad, %grad2 : memref<72xf32>, memref<72xf32>
}
