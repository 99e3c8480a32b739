// A transformer block: layer norm (statistics in f32 by construction of the
// AMP rules), Q/K/V projections, two attention heads with softmax, and an
// MLP with the tanh form of GELU.
#map3 = affine_map<(i, j) -> (i, j)>
#rowr = affine_map<(i, j) -> (i)>
#col = affine_map<(i, j) -> (j)>
// CHECK-LABEL: func.func @attention
// CHECK-SAME: -> tensor<16x32xf32>
// Layer norm statistics and normalization stay f32.
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : tensor<16x32xf32>) outs(%{{.*}} : tensor<16xf32>)
// CHECK: math.rsqrt %{{.*}} : f32
// Projections take f16 inputs and accumulate in f32.
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<16x32xf16>, tensor<32x32xf16>) outs(%{{.*}} : tensor<16x32xf32>)
// CHECK: linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<2x16x16xf16>, tensor<2x16x16xf16>) outs(%{{.*}} : tensor<2x16x16xf32>)
// CHECK: linalg.softmax dimension(2) ins(%{{.*}} : tensor<2x16x16xf32>) outs(%{{.*}} : tensor<2x16x16xf32>)
// CHECK: linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<2x16x16xf16>, tensor<2x16x16xf16>) outs(%{{.*}} : tensor<2x16x16xf32>)
// GELU between two matmuls computes in f16.
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : tensor<16x32xf16>) outs(%{{.*}} : tensor<16x32xf16>)
// CHECK: math.tanh %{{.*}} : f16
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<16x32xf16>, tensor<32x32xf16>) outs(%{{.*}} : tensor<16x32xf32>)
// CHECK: return %{{.*}} : tensor<16x32xf32>
// BF16-LABEL: func.func @attention
// BF16: linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<2x16x16xbf16>, tensor<2x16x16xbf16>) outs(%{{.*}} : tensor<2x16x16xf32>)
// BF16: linalg.softmax dimension(2) ins(%{{.*}} : tensor<2x16x16xf32>)
func.func @attention(%x: tensor<16x32xf32>, %wq: tensor<32x32xf32>, %wk: tensor<32x32xf32>,
                     %wv: tensor<32x32xf32>, %w1: tensor<32x32xf32>, %w2: tensor<32x32xf32>) -> tensor<16x32xf32> {
  %zero = arith.constant 0.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %inv_d = arith.constant 0.03125 : f32
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %c = arith.constant 0.7978845608 : f32
  %e_r = tensor.empty() : tensor<16xf32>
  %z_r = linalg.fill ins(%zero : f32) outs(%e_r : tensor<16xf32>) -> tensor<16xf32>
  // mean and variance
  %sum = linalg.generic {indexing_maps = [#map3, #rowr], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x32xf32>) outs(%z_r : tensor<16xf32>) {
    ^bb0(%in: f32, %acc: f32):
      %a = arith.addf %in, %acc : f32
      linalg.yield %a : f32
  } -> tensor<16xf32>
  %sq = linalg.generic {indexing_maps = [#map3, #rowr], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x32xf32>) outs(%z_r : tensor<16xf32>) {
    ^bb0(%in: f32, %acc: f32):
      %m = arith.mulf %in, %in : f32
      %a = arith.addf %m, %acc : f32
      linalg.yield %a : f32
  } -> tensor<16xf32>
  %e_x = tensor.empty() : tensor<16x32xf32>
  %norm = linalg.generic {indexing_maps = [#map3, #rowr, #rowr, #map3], iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum, %sq : tensor<16x32xf32>, tensor<16xf32>, tensor<16xf32>) outs(%e_x : tensor<16x32xf32>) {
    ^bb0(%v: f32, %s: f32, %q: f32, %o: f32):
      %mean = arith.mulf %s, %inv_d : f32
      %ex2 = arith.mulf %q, %inv_d : f32
      %m2 = arith.mulf %mean, %mean : f32
      %var = arith.subf %ex2, %m2 : f32
      %ve = arith.addf %var, %eps : f32
      %r = math.rsqrt %ve : f32
      %d = arith.subf %v, %mean : f32
      %n = arith.mulf %d, %r : f32
      linalg.yield %n : f32
  } -> tensor<16x32xf32>
  %z_x = linalg.fill ins(%zero : f32) outs(%e_x : tensor<16x32xf32>) -> tensor<16x32xf32>
  %q = linalg.matmul ins(%norm, %wq : tensor<16x32xf32>, tensor<32x32xf32>) outs(%z_x : tensor<16x32xf32>) -> tensor<16x32xf32>
  %k = linalg.matmul ins(%norm, %wk : tensor<16x32xf32>, tensor<32x32xf32>) outs(%z_x : tensor<16x32xf32>) -> tensor<16x32xf32>
  %v = linalg.matmul ins(%norm, %wv : tensor<16x32xf32>, tensor<32x32xf32>) outs(%z_x : tensor<16x32xf32>) -> tensor<16x32xf32>
  // two heads of 16
  %qh = tensor.expand_shape %q [[0], [1, 2]] output_shape [16, 2, 16] : tensor<16x32xf32> into tensor<16x2x16xf32>
  %kh = tensor.expand_shape %k [[0], [1, 2]] output_shape [16, 2, 16] : tensor<16x32xf32> into tensor<16x2x16xf32>
  %vh = tensor.expand_shape %v [[0], [1, 2]] output_shape [16, 2, 16] : tensor<16x32xf32> into tensor<16x2x16xf32>
  %e_h = tensor.empty() : tensor<2x16x16xf32>
  %qt = linalg.transpose ins(%qh : tensor<16x2x16xf32>) outs(%e_h : tensor<2x16x16xf32>) permutation = [1, 0, 2]
  %kt = linalg.transpose ins(%kh : tensor<16x2x16xf32>) outs(%e_h : tensor<2x16x16xf32>) permutation = [1, 2, 0]
  %vt = linalg.transpose ins(%vh : tensor<16x2x16xf32>) outs(%e_h : tensor<2x16x16xf32>) permutation = [1, 0, 2]
  %z_h = linalg.fill ins(%zero : f32) outs(%e_h : tensor<2x16x16xf32>) -> tensor<2x16x16xf32>
  %s = linalg.batch_matmul ins(%qt, %kt : tensor<2x16x16xf32>, tensor<2x16x16xf32>) outs(%z_h : tensor<2x16x16xf32>) -> tensor<2x16x16xf32>
  %p = linalg.softmax dimension(2) ins(%s : tensor<2x16x16xf32>) outs(%e_h : tensor<2x16x16xf32>) -> tensor<2x16x16xf32>
  %o = linalg.batch_matmul ins(%p, %vt : tensor<2x16x16xf32>, tensor<2x16x16xf32>) outs(%z_h : tensor<2x16x16xf32>) -> tensor<2x16x16xf32>
  %e_t = tensor.empty() : tensor<16x2x16xf32>
  %ot = linalg.transpose ins(%o : tensor<2x16x16xf32>) outs(%e_t : tensor<16x2x16xf32>) permutation = [1, 0, 2]
  %oc = tensor.collapse_shape %ot [[0], [1, 2]] : tensor<16x2x16xf32> into tensor<16x32xf32>
  // MLP with GELU
  %h = linalg.matmul ins(%oc, %w1 : tensor<16x32xf32>, tensor<32x32xf32>) outs(%z_x : tensor<16x32xf32>) -> tensor<16x32xf32>
  %g = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]}
      ins(%h : tensor<16x32xf32>) outs(%e_x : tensor<16x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      %x3 = arith.mulf %in, %in : f32
      %x3b = arith.mulf %x3, %in : f32
      %k0 = arith.constant 0.044715 : f32
      %t0 = arith.mulf %x3b, %k0 : f32
      %t1 = arith.addf %in, %t0 : f32
      %t2 = arith.mulf %t1, %c : f32
      %th = math.tanh %t2 : f32
      %t3 = arith.addf %th, %one : f32
      %t4 = arith.mulf %in, %t3 : f32
      %r = arith.mulf %t4, %half : f32
      linalg.yield %r : f32
  } -> tensor<16x32xf32>
  %y = linalg.matmul ins(%g, %w2 : tensor<16x32xf32>, tensor<32x32xf32>) outs(%z_x : tensor<16x32xf32>) -> tensor<16x32xf32>
  return %y : tensor<16x32xf32>
}

