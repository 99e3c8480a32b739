// @gemms: Tensor Core contractions of every form mp-gpu-library-gemm passes
// to cuBLASLt, each with its own zero-filled accumulator (as torch-mlir
// emits them), on sizes no tile divides: plain, batched (bf16, batch 3), B
// transposed (torch's A x B^T), A transposed, and 1x1x1.

func.func @gemms(%a: tensor<37x29xf16>, %b: tensor<29x61xf16>,
                 %ba: tensor<3x37x29xbf16>, %bb: tensor<3x29x61xbf16>,
                 %bt: tensor<61x29xf16>, %at: tensor<29x37xf16>,
                 %one: tensor<1x1xf16>)
    -> (tensor<37x61xf32>, tensor<3x37x61xf32>, tensor<37x61xf32>,
        tensor<37x61xf32>, tensor<1x1xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<37x61xf32>
  %e3 = tensor.empty() : tensor<3x37x61xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e : tensor<37x61xf32>) -> tensor<37x61xf32>
  %plain = linalg.matmul ins(%a, %b : tensor<37x29xf16>, tensor<29x61xf16>)
                         outs(%z0 : tensor<37x61xf32>) -> tensor<37x61xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<3x37x61xf32>) -> tensor<3x37x61xf32>
  %batched = linalg.batch_matmul ins(%ba, %bb : tensor<3x37x29xbf16>, tensor<3x29x61xbf16>)
                                 outs(%z1 : tensor<3x37x61xf32>) -> tensor<3x37x61xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e : tensor<37x61xf32>) -> tensor<37x61xf32>
  %abt = linalg.generic {
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                       affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>],
      iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %bt : tensor<37x29xf16>, tensor<61x29xf16>)
      outs(%z2 : tensor<37x61xf32>) {
  ^bb0(%x: f16, %y: f16, %acc: f32):
    %xe = arith.extf %x : f16 to f32
    %ye = arith.extf %y : f16 to f32
    %p = arith.mulf %xe, %ye : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<37x61xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e : tensor<37x61xf32>) -> tensor<37x61xf32>
  %atb = linalg.generic {
      indexing_maps = [affine_map<(m, n, k) -> (k, m)>,
                       affine_map<(m, n, k) -> (k, n)>,
                       affine_map<(m, n, k) -> (m, n)>],
      iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%at, %b : tensor<29x37xf16>, tensor<29x61xf16>)
      outs(%z3 : tensor<37x61xf32>) {
  ^bb0(%x: f16, %y: f16, %acc: f32):
    %xe = arith.extf %x : f16 to f32
    %ye = arith.extf %y : f16 to f32
    %p = arith.mulf %xe, %ye : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<37x61xf32>
  %e1 = tensor.empty() : tensor<1x1xf32>
  %z5 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x1xf32>) -> tensor<1x1xf32>
  %tiny = linalg.matmul ins(%one, %one : tensor<1x1xf16>, tensor<1x1xf16>)
                        outs(%z5 : tensor<1x1xf32>) -> tensor<1x1xf32>
  return %plain, %batched, %abt, %atb, %tiny
      : tensor<37x61xf32>, tensor<3x37x61xf32>, tensor<37x61xf32>,
        tensor<37x61xf32>, tensor<1x1xf32>
}

// Consumers of C that cuBLASLt's epilogue computes (mp-gpu-library-gemm):
// a bias along N in f32, the cast to f16 of C + an f16 bias, and the cast
// of a bf16 batch to bf16.
#id2 = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (j)>
#id3 = affine_map<(l, i, j) -> (l, i, j)>
func.func @epilogues(%a: tensor<37x29xf16>, %b: tensor<29x61xf16>,
                     %bias: tensor<61xf32>, %bias16: tensor<61xf16>,
                     %ba: tensor<3x37x29xbf16>, %bb: tensor<3x29x61xbf16>)
    -> (tensor<37x61xf32>, tensor<37x61xf16>, tensor<3x37x61xbf16>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<37x61xf32>
  %e16 = tensor.empty() : tensor<37x61xf16>
  %e3 = tensor.empty() : tensor<3x37x61xf32>
  %eb = tensor.empty() : tensor<3x37x61xbf16>
  %z0 = linalg.fill ins(%zero : f32) outs(%e : tensor<37x61xf32>) -> tensor<37x61xf32>
  %c0 = linalg.matmul ins(%a, %b : tensor<37x29xf16>, tensor<29x61xf16>)
                      outs(%z0 : tensor<37x61xf32>) -> tensor<37x61xf32>
  %biased = linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%c0, %bias : tensor<37x61xf32>, tensor<61xf32>) outs(%e : tensor<37x61xf32>) {
  ^bb0(%x: f32, %y: f32, %out: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<37x61xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e : tensor<37x61xf32>) -> tensor<37x61xf32>
  %c1 = linalg.matmul ins(%a, %b : tensor<37x29xf16>, tensor<29x61xf16>)
                      outs(%z1 : tensor<37x61xf32>) -> tensor<37x61xf32>
  %narrow = linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%c1, %bias16 : tensor<37x61xf32>, tensor<61xf16>) outs(%e16 : tensor<37x61xf16>) {
  ^bb0(%x: f32, %y: f16, %out: f16):
    %w = arith.extf %y : f16 to f32
    %s = arith.addf %x, %w : f32
    %t = arith.truncf %s : f32 to f16
    linalg.yield %t : f16
  } -> tensor<37x61xf16>
  %z2 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<3x37x61xf32>) -> tensor<3x37x61xf32>
  %c2 = linalg.batch_matmul ins(%ba, %bb : tensor<3x37x29xbf16>, tensor<3x29x61xbf16>)
                            outs(%z2 : tensor<3x37x61xf32>) -> tensor<3x37x61xf32>
  %cast = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%c2 : tensor<3x37x61xf32>) outs(%eb : tensor<3x37x61xbf16>) {
  ^bb0(%x: f32, %out: bf16):
    %t = arith.truncf %x : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<3x37x61xbf16>
  return %biased, %narrow, %cast : tensor<37x61xf32>, tensor<37x61xf16>, tensor<3x37x61xbf16>
}

// f32 contractions, which cuBLASLt computes with its f32 kernels
// (CUBLAS_COMPUTE_32F, no TF32) where the GPU backend would otherwise run
// one thread per element of C: torch's linear (A x B^T) with its f32 bias
// in the epilogue, and a batch of 3.
func.func @f32_gemms(%a: tensor<37x29xf32>, %bt: tensor<61x29xf32>,
                     %bias: tensor<61xf32>, %ba: tensor<3x37x29xf32>,
                     %bb: tensor<3x29x61xf32>)
    -> (tensor<37x61xf32>, tensor<3x37x61xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<37x61xf32>
  %e3 = tensor.empty() : tensor<3x37x61xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e : tensor<37x61xf32>) -> tensor<37x61xf32>
  %abt = linalg.matmul
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                       affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %bt : tensor<37x29xf32>, tensor<61x29xf32>)
      outs(%z0 : tensor<37x61xf32>) -> tensor<37x61xf32>
  %biased = linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%abt, %bias : tensor<37x61xf32>, tensor<61xf32>) outs(%e : tensor<37x61xf32>) {
  ^bb0(%x: f32, %y: f32, %out: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<37x61xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<3x37x61xf32>) -> tensor<3x37x61xf32>
  %batched = linalg.batch_matmul ins(%ba, %bb : tensor<3x37x29xf32>, tensor<3x29x61xf32>)
                                 outs(%z1 : tensor<3x37x61xf32>) -> tensor<3x37x61xf32>
  return %biased, %batched : tensor<37x61xf32>, tensor<3x37x61xf32>
}
