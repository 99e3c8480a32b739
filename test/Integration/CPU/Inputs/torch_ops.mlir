// Ops torch-mlir emits that the other graphs lack, as it writes them: each
// function has a NumPy reference of the same name in numerics.py, and
// emulation.test runs them on gpu-emulation too. Sizes are odd on purpose.

// max_pool2d(kernel 3, stride 2, padding 1): a pad with -inf, then a pool.
func.func @max_pool_padded(%x: tensor<2x3x11x13xf32>) -> tensor<2x3x6x7xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %ninf : f32
  } : tensor<2x3x11x13xf32> to tensor<2x3x13x15xf32>
  %e = tensor.empty() : tensor<2x3x6x7xf32>
  %init = linalg.fill ins(%ninf : f32) outs(%e : tensor<2x3x6x7xf32>) -> tensor<2x3x6x7xf32>
  %w = tensor.empty() : tensor<3x3xf32>
  %0 = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%p, %w : tensor<2x3x13x15xf32>, tensor<3x3xf32>) outs(%init : tensor<2x3x6x7xf32>) -> tensor<2x3x6x7xf32>
  return %0 : tensor<2x3x6x7xf32>
}

// torch.max(x, dim=1, keepdim=True): the maxima and their first indices.
func.func @argmax_rows(%x: tensor<9x37xf32>) -> (tensor<9x1xf32>, tensor<9x1xi64>) {
  %ninf = arith.constant 0xFF800000 : f32
  %c0 = arith.constant 0 : i64
  %ev = tensor.empty() : tensor<9x1xf32>
  %v = linalg.fill ins(%ninf : f32) outs(%ev : tensor<9x1xf32>) -> tensor<9x1xf32>
  %ei = tensor.empty() : tensor<9x1xi64>
  %i = linalg.fill ins(%c0 : i64) outs(%ei : tensor<9x1xi64>) -> tensor<9x1xi64>
  %0:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, 0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<9x37xf32>) outs(%v, %i : tensor<9x1xf32>, tensor<9x1xi64>) {
  ^bb0(%in: f32, %m: f32, %idx: i64):
    %j = linalg.index 1 : index
    %j64 = arith.index_cast %j : index to i64
    %max = arith.maximumf %in, %m : f32
    %gt = arith.cmpf ogt, %in, %m : f32
    %sel = arith.select %gt, %j64, %idx : i64
    linalg.yield %max, %sel : f32, i64
  } -> (tensor<9x1xf32>, tensor<9x1xi64>)
  return %0#0, %0#1 : tensor<9x1xf32>, tensor<9x1xi64>
}

// Causal attention scores: q k^T, a mask of -inf above the diagonal
// (linalg.index), a softmax over keys, then the values.
func.func @causal_attention(%q: tensor<2x7x5xf32>, %k: tensor<2x7x5xf32>, %v: tensor<2x7x5xf32>) -> tensor<2x7x5xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : tensor<2x7x7xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x7x7xf32>) -> tensor<2x7x7xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, m, n, d) -> (b, m, d)>, affine_map<(b, m, n, d) -> (b, n, d)>, affine_map<(b, m, n, d) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x7x5xf32>, tensor<2x7x5xf32>) outs(%zs : tensor<2x7x7xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  } -> tensor<2x7x7xf32>
  %masked = linalg.generic {indexing_maps = [affine_map<(b, m, n) -> (b, m, n)>, affine_map<(b, m, n) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<2x7x7xf32>) outs(%es : tensor<2x7x7xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = linalg.index 1 : index
    %n = linalg.index 2 : index
    %above = arith.cmpi ugt, %n, %m : index
    %r = arith.select %above, %ninf, %x : f32
    linalg.yield %r : f32
  } -> tensor<2x7x7xf32>
  %p = linalg.softmax dimension(2) ins(%masked : tensor<2x7x7xf32>) outs(%es : tensor<2x7x7xf32>) -> tensor<2x7x7xf32>
  %eo = tensor.empty() : tensor<2x7x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x7x5xf32>) -> tensor<2x7x5xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x7x7xf32>, tensor<2x7x5xf32>) outs(%zo : tensor<2x7x5xf32>) -> tensor<2x7x5xf32>
  return %o : tensor<2x7x5xf32>
}

// An embedding: rows of a table at indices the caller gives (integer
// inputs are drawn from [0, 10), the table has 10 rows), then a GEMM.
func.func @embedding(%table: tensor<10x6xf32>, %ids: tensor<5xi64>, %w: tensor<6x3xf32>) -> tensor<5x3xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<5x6xf32>
  %rows = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%ids : tensor<5xi64>) outs(%e : tensor<5x6xf32>) {
  ^bb0(%id: i64, %o: f32):
    %r = arith.index_cast %id : i64 to index
    %c = linalg.index 1 : index
    %x = tensor.extract %table[%r, %c] : tensor<10x6xf32>
    linalg.yield %x : f32
  } -> tensor<5x6xf32>
  %eo = tensor.empty() : tensor<5x3xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<5x3xf32>) -> tensor<5x3xf32>
  %0 = linalg.matmul ins(%rows, %w : tensor<5x6xf32>, tensor<6x3xf32>) outs(%zo : tensor<5x3xf32>) -> tensor<5x3xf32>
  return %0 : tensor<5x3xf32>
}

// torch.cat([a, b], dim=1) @ w, and a column sum of the concatenation.
func.func @concat_matmul(%a: tensor<6x3xf32>, %b: tensor<6x5xf32>, %w: tensor<8x4xf32>) -> (tensor<6x4xf32>, tensor<8xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = tensor.concat dim(1) %a, %b : (tensor<6x3xf32>, tensor<6x5xf32>) -> tensor<6x8xf32>
  %e = tensor.empty() : tensor<6x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<6x4xf32>) -> tensor<6x4xf32>
  %0 = linalg.matmul ins(%c, %w : tensor<6x8xf32>, tensor<8x4xf32>) outs(%z : tensor<6x4xf32>) -> tensor<6x4xf32>
  %es = tensor.empty() : tensor<8xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<8xf32>) -> tensor<8xf32>
  %1 = linalg.reduce ins(%c : tensor<6x8xf32>) outs(%zs : tensor<8xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %0, %1 : tensor<6x4xf32>, tensor<8xf32>
}

// Dropout with a given keep mask (u > 0.25: i1 to f32, exact in f16 and
// bf16), scaled by 1 / 0.75, then a GEMM.
func.func @dropout(%x: tensor<6x10xf32>, %u: tensor<6x10xf32>, %w: tensor<10x7xf32>) -> tensor<6x7xf32> {
  %zero = arith.constant 0.0 : f32
  %keep = arith.constant dense<0.25> : tensor<6x10xf32>
  %m = arith.cmpf ogt, %u, %keep : tensor<6x10xf32>
  %mf = arith.uitofp %m : tensor<6x10xi1> to tensor<6x10xf32>
  %e = tensor.empty() : tensor<6x10xf32>
  %d = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%x, %mf : tensor<6x10xf32>, tensor<6x10xf32>) outs(%e : tensor<6x10xf32>) {
  ^bb0(%a: f32, %k: f32, %o: f32):
    %s = arith.constant 1.33333337 : f32
    %p = arith.mulf %a, %k : f32
    %r = arith.mulf %p, %s : f32
    linalg.yield %r : f32
  } -> tensor<6x10xf32>
  %eo = tensor.empty() : tensor<6x7xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<6x7xf32>) -> tensor<6x7xf32>
  %0 = linalg.matmul ins(%d, %w : tensor<6x10xf32>, tensor<10x7xf32>) outs(%zo : tensor<6x7xf32>) -> tensor<6x7xf32>
  return %0 : tensor<6x7xf32>
}
