// Contractions of sizes the GPU tiles do not divide, in every form the tiled
// stage takes (fp32 here; --amp makes their operands f16 or bf16).

func.func @odd(%a: tensor<37x29xf32>, %b: tensor<29x61xf32>) -> tensor<37x61xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<37x61xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<37x61xf32>) -> tensor<37x61xf32>
  %r = linalg.matmul ins(%a, %b : tensor<37x29xf32>, tensor<29x61xf32>) outs(%c : tensor<37x61xf32>) -> tensor<37x61xf32>
  return %r : tensor<37x61xf32>
}

func.func @one(%a: tensor<1x1xf32>, %b: tensor<1x1xf32>) -> tensor<1x1xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x1xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<1x1xf32>) -> tensor<1x1xf32>
  %r = linalg.matmul ins(%a, %b : tensor<1x1xf32>, tensor<1x1xf32>) outs(%c : tensor<1x1xf32>) -> tensor<1x1xf32>
  return %r : tensor<1x1xf32>
}

func.func @batch(%a: tensor<3x37x29xf32>, %b: tensor<3x29x61xf32>, %bias: tensor<3x37x61xf32>) -> tensor<3x37x61xf32> {
  %r = linalg.batch_matmul ins(%a, %b : tensor<3x37x29xf32>, tensor<3x29x61xf32>) outs(%bias : tensor<3x37x61xf32>) -> tensor<3x37x61xf32>
  return %r : tensor<3x37x61xf32>
}

// A x B^T as torch-mlir emits it for a linear layer: a contraction generic.
func.func @linear(%x: tensor<5x100xf32>, %w: tensor<10x100xf32>) -> tensor<5x10xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<5x10xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<5x10xf32>) -> tensor<5x10xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %w : tensor<5x100xf32>, tensor<10x100xf32>) outs(%c : tensor<5x10xf32>) {
  ^bb0(%xi: f32, %wi: f32, %acc: f32):
    %p = arith.mulf %xi, %wi : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<5x10xf32>
  return %r : tensor<5x10xf32>
}

// A^T x B with the named op's transposed form, then ReLU.
func.func @transposed_relu(%a: tensor<29x37xf32>, %b: tensor<29x61xf32>) -> tensor<37x61xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<37x61xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<37x61xf32>) -> tensor<37x61xf32>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>] ins(%a, %b : tensor<29x37xf32>, tensor<29x61xf32>) outs(%c : tensor<37x61xf32>) -> tensor<37x61xf32>
  %relu = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%r : tensor<37x61xf32>) outs(%e : tensor<37x61xf32>) {
  ^bb0(%v: f32, %o: f32):
    %m = arith.maximumf %v, %zero : f32
    linalg.yield %m : f32
  } -> tensor<37x61xf32>
  return %relu : tensor<37x61xf32>
}

// Whole tiles, a bias and an activation after the GEMM: the GPU backend
// computes them where C's tiles are copied out, 4 elements at a time.
func.func @bias_act(%x: tensor<64x96xf32>, %w: tensor<96x128xf32>, %b: tensor<128xf32>) -> tensor<64x128xf32> {
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %e = tensor.empty() : tensor<64x128xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<64x128xf32>) -> tensor<64x128xf32>
  %r = linalg.matmul ins(%x, %w : tensor<64x96xf32>, tensor<96x128xf32>) outs(%c : tensor<64x128xf32>) -> tensor<64x128xf32>
  %act = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%r, %b : tensor<64x128xf32>, tensor<128xf32>) outs(%e : tensor<64x128xf32>) {
  ^bb0(%v: f32, %bi: f32, %o: f32):
    %s = arith.addf %v, %bi : f32
    %m = arith.maximumf %s, %zero : f32
    %h = arith.mulf %m, %half : f32
    linalg.yield %h : f32
  } -> tensor<64x128xf32>
  return %act : tensor<64x128xf32>
}

// A loss scaler's finite check of a GEMM's result (any element infinite or
// NaN) next to its unscaling: the GPU backend sets the flag where C's tiles
// are copied out. %gain 1 keeps every product finite; 1e5 sends the f16
// operands (and so C) to infinity.
func.func @finite_check(%x: tensor<64x96xf32>, %w: tensor<96x128xf32>, %gain: tensor<f32>) -> (tensor<64x128xf32>, tensor<i1>) {
  %zero = arith.constant 0.0 : f32
  %inf = arith.constant 0x7F800000 : f32
  %false = arith.constant false
  %true = arith.constant true
  %quarter = arith.constant 0.25 : f32
  %ex = tensor.empty() : tensor<64x96xf32>
  %big = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%x, %gain : tensor<64x96xf32>, tensor<f32>) outs(%ex : tensor<64x96xf32>) {
  ^bb0(%v: f32, %g: f32, %o: f32):
    %m = arith.mulf %v, %g : f32
    linalg.yield %m : f32
  } -> tensor<64x96xf32>
  %e = tensor.empty() : tensor<64x128xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<64x128xf32>) -> tensor<64x128xf32>
  %r = linalg.matmul ins(%big, %w : tensor<64x96xf32>, tensor<96x128xf32>) outs(%c : tensor<64x128xf32>) -> tensor<64x128xf32>
  %unscaled = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%r : tensor<64x128xf32>) outs(%e : tensor<64x128xf32>) {
  ^bb0(%v: f32, %o: f32):
    %m = arith.mulf %v, %quarter : f32
    linalg.yield %m : f32
  } -> tensor<64x128xf32>
  %f0 = tensor.empty() : tensor<i1>
  %f = linalg.fill ins(%false : i1) outs(%f0 : tensor<i1>) -> tensor<i1>
  %found = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%r : tensor<64x128xf32>) outs(%f : tensor<i1>) {
  ^bb0(%v: f32, %acc: i1):
    %a = math.absf %v : f32
    %finite = arith.cmpf olt, %a, %inf : f32
    %bad = arith.xori %finite, %true : i1
    %any = arith.ori %acc, %bad : i1
    linalg.yield %any : i1
  } -> tensor<i1>
  return %unscaled, %found : tensor<64x128xf32>, tensor<i1>
}

// Operands already f16 (as activations an epilogue rounded are): the GPU
// backend double-buffers their panels (cp.async on a GPU), 3 K steps.
func.func @f16_operands(%a: tensor<128x96xf16>, %b: tensor<96x64xf16>) -> tensor<128x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x64xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<128x64xf32>) -> tensor<128x64xf32>
  %r = linalg.matmul ins(%a, %b : tensor<128x96xf16>, tensor<96x64xf16>) outs(%c : tensor<128x64xf32>) -> tensor<128x64xf32>
  return %r : tensor<128x64xf32>
}

// A weight gradient of many rows (dW = X^T dY): one block of C, so
// mp-gpu-split-k computes it as 8 partial GEMMs of 512 rows each and their
// sum, then the ReLU.
func.func @split_k(%x: tensor<4096x37xf32>, %dy: tensor<4096x21xf32>) -> tensor<37x21xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<37x21xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<37x21xf32>) -> tensor<37x21xf32>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>] ins(%x, %dy : tensor<4096x37xf32>, tensor<4096x21xf32>) outs(%c : tensor<37x21xf32>) -> tensor<37x21xf32>
  %relu = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%r : tensor<37x21xf32>) outs(%e : tensor<37x21xf32>) {
  ^bb0(%v: f32, %o: f32):
    %m = arith.maximumf %v, %zero : f32
    linalg.yield %m : f32
  } -> tensor<37x21xf32>
  return %relu : tensor<37x21xf32>
}

// f16 operands the split reads as they are: A (K innermost) copied over the
// parts, B (K outermost) reshaped; C starts from the bias.
func.func @split_k_f16(%a: tensor<16x2048xf16>, %b: tensor<2048x24xf16>, %bias: tensor<16x24xf32>) -> tensor<16x24xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<16x2048xf16>, tensor<2048x24xf16>) outs(%bias : tensor<16x24xf32>) -> tensor<16x24xf32>
  return %r : tensor<16x24xf32>
}

// A 64 x 64 weight gradient of 4096 rows: 8 parts of 512 rows, a batched
// GEMM whose panels are double-buffered (wgmma takes it on sm_90a).
func.func @split_k_64(%x: tensor<4096x64xf32>, %dy: tensor<4096x64xf32>) -> tensor<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>] ins(%x, %dy : tensor<4096x64xf32>, tensor<4096x64xf32>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}

// C starts from an elementwise op that computes (-(x + x)), whole tiles and
// no epilogue: the GEMM's copy of C into its tile computes it (the tile
// must be staged even though C's size divides it and nothing else needs it).
func.func @producer_init(%x: tensor<64x64xf32>, %a: tensor<64x96xf32>, %b: tensor<96x64xf32>) -> tensor<64x64xf32> {
  %e = tensor.empty() : tensor<64x64xf32>
  %init = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) {
  ^bb0(%v: f32, %o: f32):
    %s = arith.addf %v, %v : f32
    %n = arith.negf %s : f32
    linalg.yield %n : f32
  } -> tensor<64x64xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<64x96xf32>, tensor<96x64xf32>) outs(%init : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// A GEMM with an epilogue (a bias) whose C is then written in part (a
// slice of the biased result inserted into it) and returned: C is stored as
// well, the insertion overwriting only its slice (before, C was left unset
// outside it; random graph 705, fp32).
func.func @insert_into_result(%a: tensor<64x96xf32>, %b: tensor<96x64xf32>, %bias: tensor<64x64xf32>) -> (tensor<64x64xf32>, tensor<64x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %c = linalg.matmul ins(%a, %b : tensor<64x96xf32>, tensor<96x64xf32>) outs(%z : tensor<64x64xf32>) -> tensor<64x64xf32>
  %s = linalg.add ins(%c, %bias : tensor<64x64xf32>, tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %slice = tensor.extract_slice %s[0, 0] [32, 32] [1, 1] : tensor<64x64xf32> to tensor<32x32xf32>
  %c2 = tensor.insert_slice %slice into %c[32, 32] [32, 32] [1, 1] : tensor<32x32xf32> into tensor<64x64xf32>
  return %s, %c2 : tensor<64x64xf32>, tensor<64x64xf32>
}

// A K of 256 (emulation.test's --gpu-tile-k 64 cases): four K steps of 64,
// or eight of 32, over f16 panels staged in slots.
func.func @deep_k(%a: tensor<128x256xf16>, %b: tensor<256x128xf16>) -> tensor<128x128xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x128xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<128x128xf32>) -> tensor<128x128xf32>
  %r = linalg.matmul ins(%a, %b : tensor<128x256xf16>, tensor<256x128xf16>) outs(%c : tensor<128x128xf32>) -> tensor<128x128xf32>
  return %r : tensor<128x128xf32>
}

// A K of 200, not a multiple of 16, and M and N the blocks do not divide:
// with --gpu-tile-k 64 three K steps of 64 and a masked one.
func.func @deep_k_odd(%a: tensor<70x200xf32>, %b: tensor<200x72xf32>) -> tensor<70x72xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<70x72xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<70x72xf32>) -> tensor<70x72xf32>
  %r = linalg.matmul ins(%a, %b : tensor<70x200xf32>, tensor<200x72xf32>) outs(%c : tensor<70x72xf32>) -> tensor<70x72xf32>
  return %r : tensor<70x72xf32>
}

// A^T x B of 130 rows into B itself, a grid of 1 x 3 blocks of 4 warps
// whose edge tiles copy element by element: ptxas kept it to 96 registers
// on sm_90a and spilled 16 bytes (random shapes graph 14) until
// mp-gpu-launch-bounds let such small grids take all they need.
func.func @small_grid(%a: tensor<130x130xf32>, %b: tensor<130x32xf32>) -> tensor<130x32xf32> {
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>] ins(%a, %b : tensor<130x130xf32>, tensor<130x32xf32>) outs(%b : tensor<130x32xf32>) -> tensor<130x32xf32>
  return %r : tensor<130x32xf32>
}
