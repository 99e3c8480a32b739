// Reductions the GPU backend distributes over the threads of a block (full
// reductions, few outputs of many terms) or over its warps (many rows), at
// sizes no tile divides.

// The sum of all 37x61 elements and the largest of them.
func.func @full(%x: tensor<37x61xf32>) -> (tensor<f32>, tensor<f32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<f32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %sum = linalg.reduce ins(%x : tensor<37x61xf32>) outs(%z : tensor<f32>) dimensions = [0, 1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  %n = linalg.fill ins(%ninf : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %max = linalg.reduce ins(%x : tensor<37x61xf32>) outs(%n : tensor<f32>) dimensions = [0, 1]
    (%in: f32, %acc: f32) {
      %m = arith.maximumf %in, %acc : f32
      linalg.yield %m : f32
    }
  return %sum, %max : tensor<f32>, tensor<f32>
}

// Per row of 3x1000, the sum of exp(x) (a softmax's denominator), and per
// column of 1000x5 the sum of squares (the reduction outermost, as in a bias
// gradient).
func.func @rows_cols(%x: tensor<3x1000xf32>, %y: tensor<1000x5xf32>) -> (tensor<3xf32>, tensor<5xf32>) {
  %zero = arith.constant 0.0 : f32
  %e3 = tensor.empty() : tensor<3xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<3xf32>) -> tensor<3xf32>
  %rows = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<3x1000xf32>) outs(%z3 : tensor<3xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %ex = math.exp %in : f32
    %s = arith.addf %ex, %acc : f32
    linalg.yield %s : f32
  } -> tensor<3xf32>
  %e5 = tensor.empty() : tensor<5xf32>
  %z5 = linalg.fill ins(%zero : f32) outs(%e5 : tensor<5xf32>) -> tensor<5xf32>
  %cols = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>], iterator_types = ["reduction", "parallel"]} ins(%y : tensor<1000x5xf32>) outs(%z5 : tensor<5xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %sq = arith.mulf %in, %in : f32
    %s = arith.addf %sq, %acc : f32
    linalg.yield %s : f32
  } -> tensor<5xf32>
  return %rows, %cols : tensor<3xf32>, tensor<5xf32>
}

// Row maxima and a softmax's denominators over 4099 rows of 300 terms
// x[i, j] = u[i] * v[j] + v[j] (more rows than blocks of one block per row
// take: one warp per row, and 4099 is no multiple of the 8 warps of a block).
// The rows are computed from 4399 inputs (small for the device bundle).
func.func @many_rows(%u: tensor<4099xf32>, %v: tensor<300xf32>) -> (tensor<4099xf32>, tensor<4099xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %ex = tensor.empty() : tensor<4099x300xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%u, %v : tensor<4099xf32>, tensor<300xf32>) outs(%ex : tensor<4099x300xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %p = arith.mulf %a, %b : f32
    %q = arith.addf %p, %b : f32
    linalg.yield %q : f32
  } -> tensor<4099x300xf32>
  %e = tensor.empty() : tensor<4099xf32>
  %n = linalg.fill ins(%ninf : f32) outs(%e : tensor<4099xf32>) -> tensor<4099xf32>
  %max = linalg.reduce ins(%x : tensor<4099x300xf32>) outs(%n : tensor<4099xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %m = arith.maximumf %in, %acc : f32
      linalg.yield %m : f32
    }
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4099xf32>) -> tensor<4099xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]} ins(%x, %max : tensor<4099x300xf32>, tensor<4099xf32>) outs(%z : tensor<4099xf32>) {
  ^bb0(%in: f32, %m: f32, %acc: f32):
    %d = arith.subf %in, %m : f32
    %exp = math.exp %d : f32
    %s = arith.addf %exp, %acc : f32
    linalg.yield %s : f32
  } -> tensor<4099xf32>
  return %max, %sum : tensor<4099xf32>, tensor<4099xf32>
}
