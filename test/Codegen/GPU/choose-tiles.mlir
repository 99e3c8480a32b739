// RUN: mp-opt %s --split-input-file --mp-gpu-choose-tiles | FileCheck %s --implicit-check-not=tensor.pad
// RUN: mp-opt %s --split-input-file --mp-gpu-choose-tiles='tile-m=32 tile-n=16 warp-m=16 warp-n=16' | FileCheck %s --check-prefix=SMALL
// RUN: not mp-opt %s --mp-gpu-choose-tiles='tile-n=0' 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: mp-opt %s --split-input-file --mp-gpu-choose-tiles='simt-block=128 simt-thread=8' | FileCheck %s --check-prefix=SIMT8
// RUN: not mp-opt %s --mp-gpu-choose-tiles='simt-block=96' 2>&1 | FileCheck %s --check-prefix=BAD-SIMT
// A convolution of dynamic sizes keeps no tiles, with a warning at the op.
// RUN: mp-opt %s --split-input-file --mp-gpu-choose-tiles 2>&1 >/dev/null | FileCheck %s --check-prefix=DYNAMIC --implicit-check-not=warning
// RUN: not mp-opt %s --mp-gpu-choose-tiles='simt-block=256 simt-thread=2' 2>&1 | FileCheck %s --check-prefix=BAD-SIMT-THREADS
// BAD-SIMT: error: mp-gpu-choose-tiles: simt-block=96 simt-thread=4 is invalid: expected simt-block to be simt-thread (1 or more) times a power of two
// BAD-SIMT-THREADS: error: mp-gpu-choose-tiles: simt-block=256 simt-thread=2 is invalid: blocks of 128 x 128 threads exceed the 1024 a block may have
// RUN: mp-opt %s --split-input-file --mp-gpu-choose-tiles='large-tiles=128,128,16,128' | FileCheck %s --check-prefix=LARGE
// RUN: mp-opt %s --split-input-file --mp-gpu-choose-tiles='large-tiles=128,128,16,128 large-min-blocks=300' | FileCheck %s --check-prefix=FEWER
// RUN: not mp-opt %s --mp-gpu-choose-tiles='large-tiles=128,128' 2>&1 | FileCheck %s --check-prefix=BAD-LARGE
// RUN: not mp-opt %s --mp-gpu-choose-tiles='large-tiles=128,128,24,128' 2>&1 | FileCheck %s --check-prefix=BAD-LARGE-WARP
// RUN: not mp-opt %s --mp-gpu-choose-tiles='large-tiles=128,128,16,128 large-min-blocks=0' 2>&1 | FileCheck %s --check-prefix=BAD-MIN
// With the default options (wgmma's blocks of two warpgroups): mp-lower-to-gpu
// gives them to a large GEMM with wgmma unless told otherwise.
// RUN: mp-opt %s --split-input-file --mp-lower-to-gpu='wgmma=true format=isa' --mlir-print-ir-after=mp-gpu-choose-tiles -o /dev/null 2>&1 | FileCheck %s --check-prefix=PIPELINE
// RUN: mp-opt %s --split-input-file --mp-lower-to-gpu='wgmma=true wgmma-large-min-blocks=0 format=isa' --mlir-print-ir-after=mp-gpu-choose-tiles -o /dev/null 2>&1 | FileCheck %s --check-prefix=PIPELINE-OFF
// RUN: not mp-opt %s --mp-lower-to-gpu='wgmma=true wgmma-large-min-blocks=-1' 2>&1 | FileCheck %s --check-prefix=BAD-PIPELINE

// BAD-LARGE: error: mp-gpu-choose-tiles: large-tiles expects 4 numbers M,N,WARP_M,WARP_N, got 2
// BAD-LARGE-WARP: error: mp-gpu-choose-tiles large-tiles: tile-m=128 tile-n=128 warp-m=24 warp-n=128 is invalid: warp-m must be a positive multiple of 16 and warp-n of 8, dividing tile-m and tile-n
// BAD-MIN: error: mp-gpu-choose-tiles: large-min-blocks=0 is invalid: expected 1 or more
// BAD-PIPELINE: mp-lower-to-gpu: wgmma-large-min-blocks=-1 is invalid: expected 0 (off) or more

// BAD: error: mp-gpu-choose-tiles: tile-m=64 tile-n=0 warp-m=32 warp-n=32 is invalid: warp-m must be a positive multiple of 16 and warp-n of 8, dividing tile-m and tile-n

// 37x61x29: whole 64x64 blocks of 32x32 warps, recorded as mp.gpu_tile for
// mp-gpu-tile-contractions; the sizes stay (nothing is padded: the tiled
// stage masks the edges).
// CHECK-LABEL: func.func @odd
// CHECK: %[[R:.*]] = linalg.matmul {mp.gpu_tile = array<i64: 64, 64, 32, 32>} ins(%arg0, %arg1 : tensor<37x29xf16>, tensor<29x61xf16>) outs(%arg2 : tensor<37x61xf32>)
// CHECK: return %[[R]]
// SMALL-LABEL: func.func @odd
// SMALL: linalg.matmul {mp.gpu_tile = array<i64: 32, 16, 16, 16>} {{.*}} outs({{.*}} : tensor<37x61xf32>)
func.func @odd(%a: tensor<37x29xf16>, %b: tensor<29x61xf16>, %c: tensor<37x61xf32>) -> tensor<37x61xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<37x29xf16>, tensor<29x61xf16>) outs(%c : tensor<37x61xf32>) -> tensor<37x61xf32>
  return %r : tensor<37x61xf32>
}

// -----

// bf16, batch 3 of 1x1x1: the smallest tiles (one m16n8k16) cover M and N,
// not a whole block. A batch of 28x28 attention scores: 32x32 tiles, split
// into 2x2 warps of 16x16 (halves of 16 rows and 8 columns are still mma
// tiles); 20x10: 32x16 in 2x2 warps of 16x8.
// CHECK-LABEL: func.func @batch_of_ones
// CHECK: linalg.batch_matmul {mp.gpu_tile = array<i64: 16, 8, 16, 8>} {{.*}} -> tensor<3x1x1xf32>
// CHECK-LABEL: func.func @scores
// CHECK: linalg.batch_matmul {mp.gpu_tile = array<i64: 32, 32, 16, 16>} {{.*}} -> tensor<128x28x28xf32>
// CHECK: linalg.matmul {mp.gpu_tile = array<i64: 32, 16, 16, 8>} {{.*}} -> tensor<20x10xf32>
func.func @batch_of_ones(%a: tensor<3x1x1xbf16>, %b: tensor<3x1x1xbf16>, %c: tensor<3x1x1xf32>) -> tensor<3x1x1xf32> {
  %r = linalg.batch_matmul ins(%a, %b : tensor<3x1x1xbf16>, tensor<3x1x1xbf16>) outs(%c : tensor<3x1x1xf32>) -> tensor<3x1x1xf32>
  return %r : tensor<3x1x1xf32>
}
func.func @scores(%q: tensor<128x28x16xf16>, %k: tensor<128x16x28xf16>, %s: tensor<128x28x28xf32>,
                  %a: tensor<20x64xf16>, %b: tensor<64x10xf16>, %c: tensor<20x10xf32>) -> (tensor<128x28x28xf32>, tensor<20x10xf32>) {
  %r = linalg.batch_matmul ins(%q, %k : tensor<128x28x16xf16>, tensor<128x16x28xf16>) outs(%s : tensor<128x28x28xf32>) -> tensor<128x28x28xf32>
  %m = linalg.matmul ins(%a, %b : tensor<20x64xf16>, tensor<64x10xf16>) outs(%c : tensor<20x10xf32>) -> tensor<20x10xf32>
  return %r, %m : tensor<128x28x28xf32>, tensor<20x10xf32>
}

// -----

// Sizes the tiles divide get tiles too, and f32 operands (CUDA cores) blocks
// of the smallest power of two from 4 that covers M and N, at most 64, in
// threads of 4 x 4; left alone: mixed operands, an f16 accumulator,
// buffers.
// CHECK-LABEL: func.func @left_alone
// CHECK: linalg.matmul {mp.gpu_tile = array<i64: 64, 64, 32, 32>} ins(%arg0, %arg1
// CHECK: linalg.matmul {mp.gpu_tile = array<i64: 64, 64, 4, 4>} ins(%arg3, %arg4 : tensor<37x29xf32>
// CHECK: linalg.matmul {mp.gpu_tile = array<i64: 4, 16, 4, 4>} ins(%{{.*}} : tensor<3x29xf32>, tensor<29x10xf32>)
// CHECK: linalg.matmul {mp.gpu_tile = array<i64: 64, 32, 4, 4>} ins(%{{.*}} : tensor<100x29xf32>, tensor<29x32xf32>)
// CHECK-NOT: mp.gpu_tile
// CHECK: return
// With simt-block=128 simt-thread=8: threads of 8 x 8, blocks of 8 times a
// power of two up to 128.
// SIMT8-LABEL: func.func @left_alone
// SIMT8: linalg.matmul {mp.gpu_tile = array<i64: 64, 64, 8, 8>} ins(%arg3, %arg4 : tensor<37x29xf32>
// SIMT8: linalg.matmul {mp.gpu_tile = array<i64: 8, 16, 8, 8>} ins(%{{.*}} : tensor<3x29xf32>, tensor<29x10xf32>)
// SIMT8: linalg.matmul {mp.gpu_tile = array<i64: 128, 32, 8, 8>} ins(%{{.*}} : tensor<100x29xf32>, tensor<29x32xf32>)
func.func @left_alone(%a: tensor<64x32xf16>, %b: tensor<32x64xf16>, %c: tensor<64x64xf32>,
                      %f: tensor<37x29xf32>, %fb: tensor<29x61xf32>, %fc: tensor<37x61xf32>,
                      %h: tensor<37x29xf16>, %hb: tensor<29x61xbf16>, %hc16: tensor<37x61xf16>,
                      %hh: tensor<29x61xf16>,
                      %m: memref<37x29xf16>, %mb: memref<29x61xf16>, %mc: memref<37x61xf32>,
                      %f3: tensor<3x29xf32>, %f10: tensor<29x10xf32>, %fc3: tensor<3x10xf32>,
                      %f100: tensor<100x29xf32>, %f32: tensor<29x32xf32>, %fc100: tensor<100x32xf32>) {
  %0 = linalg.matmul ins(%a, %b : tensor<64x32xf16>, tensor<32x64xf16>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  %1 = linalg.matmul ins(%f, %fb : tensor<37x29xf32>, tensor<29x61xf32>) outs(%fc : tensor<37x61xf32>) -> tensor<37x61xf32>
  %small = linalg.matmul ins(%f3, %f10 : tensor<3x29xf32>, tensor<29x10xf32>) outs(%fc3 : tensor<3x10xf32>) -> tensor<3x10xf32>
  %tall = linalg.matmul ins(%f100, %f32 : tensor<100x29xf32>, tensor<29x32xf32>) outs(%fc100 : tensor<100x32xf32>) -> tensor<100x32xf32>
  %2 = linalg.matmul ins(%h, %hb : tensor<37x29xf16>, tensor<29x61xbf16>) outs(%fc : tensor<37x61xf32>) -> tensor<37x61xf32>
  %3 = linalg.matmul ins(%h, %hh : tensor<37x29xf16>, tensor<29x61xf16>) outs(%hc16 : tensor<37x61xf16>) -> tensor<37x61xf16>
  linalg.matmul ins(%m, %mb : memref<37x29xf16>, memref<29x61xf16>) outs(%mc : memref<37x61xf32>)
  return
}

// -----

// large-tiles: a GEMM with at least large-min-blocks (256) blocks of them
// takes them: 2048 x 2048 (256 blocks of 128 x 128), and a batch of 4 of
// 1024 x 1024 (4 x 64); one 1024 x 1024 (64 blocks) and 2048 x 1920 (240)
// keep the others. With large-min-blocks=300 none has enough.
// LARGE-LABEL: func.func @large
// LARGE: linalg.matmul {mp.gpu_tile = array<i64: 128, 128, 16, 128>} {{.*}} -> tensor<2048x2048xf32>
// LARGE: linalg.batch_matmul {mp.gpu_tile = array<i64: 128, 128, 16, 128>} {{.*}} -> tensor<4x1024x1024xf32>
// LARGE: linalg.matmul {mp.gpu_tile = array<i64: 64, 64, 32, 32>} {{.*}} -> tensor<1024x1024xf32>
// LARGE: linalg.matmul {mp.gpu_tile = array<i64: 64, 64, 32, 32>} {{.*}} -> tensor<2048x1920xf32>
// FEWER-LABEL: func.func @large
// FEWER-NOT: array<i64: 128, 128
// PIPELINE-LABEL: func.func @large
// PIPELINE: linalg.matmul {mp.gpu_tile = array<i64: 128, 128, 16, 128>} {{.*}} -> tensor<2048x2048xf32>
// PIPELINE: linalg.batch_matmul {mp.gpu_tile = array<i64: 128, 128, 16, 128>} {{.*}} -> tensor<4x1024x1024xf32>
// PIPELINE: linalg.matmul {mp.gpu_tile = array<i64: 64, 64, 16, 64>} {{.*}} -> tensor<1024x1024xf32>
// PIPELINE: linalg.matmul {mp.gpu_tile = array<i64: 64, 64, 16, 64>} {{.*}} -> tensor<2048x1920xf32>
// PIPELINE-OFF-LABEL: func.func @large
// PIPELINE-OFF-NOT: array<i64: 128, 128
func.func @large(%a: tensor<2048x64xf16>, %b: tensor<64x2048xf16>, %c: tensor<2048x2048xf32>,
                 %ba: tensor<4x1024x64xf16>, %bb: tensor<4x64x1024xf16>, %bc: tensor<4x1024x1024xf32>,
                 %sa: tensor<1024x64xf16>, %sb: tensor<64x1024xf16>, %sc: tensor<1024x1024xf32>,
                 %na: tensor<2048x64xf16>, %nb: tensor<64x1920xf16>, %nc: tensor<2048x1920xf32>)
    -> (tensor<2048x2048xf32>, tensor<4x1024x1024xf32>, tensor<1024x1024xf32>, tensor<2048x1920xf32>) {
  %r = linalg.matmul ins(%a, %b : tensor<2048x64xf16>, tensor<64x2048xf16>) outs(%c : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %br = linalg.batch_matmul ins(%ba, %bb : tensor<4x1024x64xf16>, tensor<4x64x1024xf16>) outs(%bc : tensor<4x1024x1024xf32>) -> tensor<4x1024x1024xf32>
  %sr = linalg.matmul ins(%sa, %sb : tensor<1024x64xf16>, tensor<64x1024xf16>) outs(%sc : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %nr = linalg.matmul ins(%na, %nb : tensor<2048x64xf16>, tensor<64x1920xf16>) outs(%nc : tensor<2048x1920xf32>) -> tensor<2048x1920xf32>
  return %r, %br, %sr, %nr : tensor<2048x2048xf32>, tensor<4x1024x1024xf32>, tensor<1024x1024xf32>, tensor<2048x1920xf32>
}

// -----

// A convolution of a dynamic batch warns too (mp-gpu-conv-to-gemm takes
// static ones); a max pool, which has the convolutions' interface but is
// no multiply-accumulate, does not.
// CHECK-LABEL: func.func @dynamic_batch
// CHECK-NOT: mp.gpu_tile
func.func @dynamic_batch(%x: tensor<?x2x9x9xf16>, %w: tensor<4x2x3x3xf16>, %o: tensor<?x4x7x7xf32>,
                         %win: tensor<3x3xf32>, %p: tensor<?x2x7x7xf32>, %xf: tensor<?x2x9x9xf32>)
    -> (tensor<?x4x7x7xf32>, tensor<?x2x7x7xf32>) {
  // DYNAMIC: choose-tiles.mlir:[[@LINE+1]]:8: warning: mp-gpu-choose-tiles: this convolution has dynamic sizes, which the implicit GEMMs (Tensor Cores for f16 and bf16) and cuDNN's calls do not take: it runs as parallel loops on CUDA cores; give its operands static sizes
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<?x2x9x9xf16>, tensor<4x2x3x3xf16>) outs(%o : tensor<?x4x7x7xf32>) -> tensor<?x4x7x7xf32>
  %m = linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%xf, %win : tensor<?x2x9x9xf32>, tensor<3x3xf32>) outs(%p : tensor<?x2x7x7xf32>) -> tensor<?x2x7x7xf32>
  return %c, %m : tensor<?x4x7x7xf32>, tensor<?x2x7x7xf32>
}

// -----

// Contractions of dynamic sizes get tiles as if those sizes were large: a
// whole block along a dynamic M or N (64 on Tensor Cores, simt-block on
// CUDA cores), a batch of blocks of 1; large-tiles only where M, N and the
// batch are static (here a dynamic K of 2048 x 2048: 256 blocks).
// CHECK-LABEL: func.func @dynamic_sizes
// CHECK: linalg.matmul {mp.gpu_tile = array<i64: 64, 64, 32, 32>} {{.*}} -> tensor<?x61xf32>
// CHECK: linalg.matmul {mp.gpu_tile = array<i64: 64, 16, 32, 8>} {{.*}} -> tensor<?x10xf32>
// CHECK: linalg.matmul {mp.gpu_tile = array<i64: 64, 16, 4, 4>} {{.*}} -> tensor<?x10xf32>
// CHECK: linalg.batch_matmul {mp.gpu_tile = array<i64: 64, 64, 32, 32>} {{.*}} -> tensor<?x37x61xf32>
// CHECK: linalg.matmul {mp.gpu_tile = array<i64: 64, 64, 32, 32>} {{.*}} -> tensor<2048x2048xf32>
// LARGE-LABEL: func.func @dynamic_sizes
// LARGE: linalg.matmul {mp.gpu_tile = array<i64: 64, 64, 32, 32>} {{.*}} -> tensor<?x61xf32>
// LARGE: linalg.matmul {mp.gpu_tile = array<i64: 64, 16, 32, 8>} {{.*}} -> tensor<?x10xf32>
// LARGE: linalg.matmul {mp.gpu_tile = array<i64: 64, 16, 4, 4>} {{.*}} -> tensor<?x10xf32>
// LARGE: linalg.batch_matmul {mp.gpu_tile = array<i64: 64, 64, 32, 32>} {{.*}} -> tensor<?x37x61xf32>
// LARGE: linalg.matmul {mp.gpu_tile = array<i64: 128, 128, 16, 128>} {{.*}} -> tensor<2048x2048xf32>
func.func @dynamic_sizes(%d: tensor<?x29xf16>, %hh: tensor<29x61xf16>, %dc: tensor<?x61xf32>,
                         %h10: tensor<29x10xf16>, %dc10: tensor<?x10xf32>,
                         %f: tensor<?x29xf32>, %f10: tensor<29x10xf32>,
                         %ba: tensor<?x37x29xf16>, %bb: tensor<?x29x61xf16>, %bc: tensor<?x37x61xf32>,
                         %ka: tensor<2048x?xf16>, %kb: tensor<?x2048xf16>, %kc: tensor<2048x2048xf32>)
    -> (tensor<?x61xf32>, tensor<?x10xf32>, tensor<?x10xf32>, tensor<?x37x61xf32>, tensor<2048x2048xf32>) {
  %0 = linalg.matmul ins(%d, %hh : tensor<?x29xf16>, tensor<29x61xf16>) outs(%dc : tensor<?x61xf32>) -> tensor<?x61xf32>
  %1 = linalg.matmul ins(%d, %h10 : tensor<?x29xf16>, tensor<29x10xf16>) outs(%dc10 : tensor<?x10xf32>) -> tensor<?x10xf32>
  %2 = linalg.matmul ins(%f, %f10 : tensor<?x29xf32>, tensor<29x10xf32>) outs(%dc10 : tensor<?x10xf32>) -> tensor<?x10xf32>
  %3 = linalg.batch_matmul ins(%ba, %bb : tensor<?x37x29xf16>, tensor<?x29x61xf16>) outs(%bc : tensor<?x37x61xf32>) -> tensor<?x37x61xf32>
  %4 = linalg.matmul ins(%ka, %kb : tensor<2048x?xf16>, tensor<?x2048xf16>) outs(%kc : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  return %0, %1, %2, %3, %4 : tensor<?x61xf32>, tensor<?x10xf32>, tensor<?x10xf32>, tensor<?x37x61xf32>, tensor<2048x2048xf32>
}
