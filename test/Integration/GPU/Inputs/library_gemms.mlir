// Tensor Core contractions of every form mp-gpu-library-gemm passes to
// cuBLASLt, each with its own zero-filled accumulator (as torch-mlir emits
// them), on sizes no tile divides: plain, batched (bf16, batch 3), B
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
