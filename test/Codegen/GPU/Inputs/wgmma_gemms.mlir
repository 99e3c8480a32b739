// GEMMs in every operand layout that wgmma takes from the staged panels
// (vector-to-mma.mlir, wgmma_layout.py): A x B (A K-major, B N-major),
// A^T x B (A M-major), A x B^T (B K-major), a K of 16 (32-byte rows), bf16,
// and 32 columns per block (64-byte rows of B).

func.func @ab(%a: memref<128x64xf16>, %b: memref<64x128xf16>, %c: memref<128x128xf32>) {
  linalg.matmul ins(%a, %b : memref<128x64xf16>, memref<64x128xf16>) outs(%c : memref<128x128xf32>)
  return
}

// -----

func.func @atb(%a: memref<64x128xf16>, %b: memref<64x128xf16>, %c: memref<128x128xf32>) {
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : memref<64x128xf16>, memref<64x128xf16>) outs(%c : memref<128x128xf32>) {
  ^bb0(%x: f16, %y: f16, %acc: f32):
    %xf = arith.extf %x : f16 to f32
    %yf = arith.extf %y : f16 to f32
    %p = arith.mulf %xf, %yf : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

func.func @abt(%a: memref<128x64xf16>, %b: memref<128x64xf16>, %c: memref<128x128xf32>) {
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : memref<128x64xf16>, memref<128x64xf16>) outs(%c : memref<128x128xf32>) {
  ^bb0(%x: f16, %y: f16, %acc: f32):
    %xf = arith.extf %x : f16 to f32
    %yf = arith.extf %y : f16 to f32
    %p = arith.mulf %xf, %yf : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

func.func @k16(%a: memref<128x16xf16>, %b: memref<16x128xf16>, %c: memref<128x128xf32>) {
  linalg.matmul ins(%a, %b : memref<128x16xf16>, memref<16x128xf16>) outs(%c : memref<128x128xf32>)
  return
}

// -----

func.func @bf16(%a: memref<128x64xbf16>, %b: memref<64x128xbf16>, %c: memref<128x128xf32>) {
  linalg.matmul ins(%a, %b : memref<128x64xbf16>, memref<64x128xbf16>) outs(%c : memref<128x128xf32>)
  return
}

// -----

func.func @batched(%a: memref<2x128x64xf16>, %b: memref<2x64x128xf16>, %c: memref<2x128x128xf32>) {
  linalg.batch_matmul ins(%a, %b : memref<2x128x64xf16>, memref<2x64x128xf16>) outs(%c : memref<2x128x128xf32>)
  return
}
