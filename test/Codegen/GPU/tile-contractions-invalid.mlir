// RUN: mp-opt %s --split-input-file --verify-diagnostics --mp-gpu-tile-contractions

// Tiles an op carries (mp-gpu-choose-tiles', or written by hand) must fit its
// kind: a Tensor Core contraction's warps are mma tiles.
func.func @mma_warp(%a: memref<64x64xf16>, %c: memref<64x64xf32>) {
  // expected-error @below {{mp-gpu-tile-contractions: tile-m=64 tile-n=64 warp-m=8 warp-n=8 is invalid: warp-m must be a positive multiple of 16 and warp-n of 8, dividing tile-m and tile-n}}
  linalg.matmul {mp.gpu_tile = array<i64: 64, 64, 8, 8>} ins(%a, %a : memref<64x64xf16>, memref<64x64xf16>) outs(%c : memref<64x64xf32>)
  return
}

// -----

// An f32 contraction's threads (a block of 128 x 128 in threads of 2 x 2)
// must fit in a block.
func.func @simt_threads(%a: memref<128x128xf32>, %c: memref<128x128xf32>) {
  // expected-error @below {{mp-gpu-tile-contractions: tiles 128x128 of 2x2 per thread are 4096 threads, more than the 1024 a block may have}}
  linalg.matmul {mp.gpu_tile = array<i64: 128, 128, 2, 2>} ins(%a, %a : memref<128x128xf32>, memref<128x128xf32>) outs(%c : memref<128x128xf32>)
  return
}
