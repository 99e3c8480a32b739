// A two-layer MLP classifier with a softmax cross-entropy loss, written as a
// gradient function in the training contract of docs/Design.md: it
// returns the loss and the gradient of every parameter, with the backward
// pass seeded by %seed (dLoss/dLoss), and the logits (for accuracy).
//
//   h = relu(x W1 + b1); logits = h W2 + b2
//   loss = -mean_b sum_c y * log_softmax(logits)

#id2 = affine_map<(b, c) -> (b, c)>
#row = affine_map<(b, c) -> (b)>
#col = affine_map<(b, c) -> (c)>
#scalar2 = affine_map<(b, c) -> ()>
#id1 = affine_map<(b) -> (b)>
#scalar1 = affine_map<(b) -> ()>

func.func @mlp_grad(%w1: tensor<784x128xf32> {mp.param}, %b1: tensor<128xf32> {mp.param},
                    %w2: tensor<128x10xf32> {mp.param}, %b2: tensor<10xf32> {mp.param},
                    %x: tensor<64x784xf32> {mp.input}, %y: tensor<64x10xf32> {mp.input},
                    %seed: tensor<f32> {mp.grad_seed})
    -> (tensor<f32> {mp.loss}, tensor<784x128xf32> {mp.grad_of = 0 : i64},
        tensor<128xf32> {mp.grad_of = 1 : i64}, tensor<128x10xf32> {mp.grad_of = 2 : i64},
        tensor<10xf32> {mp.grad_of = 3 : i64}, tensor<64x10xf32> {mp.output}) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %inv_batch = arith.constant 0.015625 : f32

  // ---- forward: layer 1 ----
  %e_h = tensor.empty() : tensor<64x128xf32>
  %z_h = linalg.fill ins(%zero : f32) outs(%e_h : tensor<64x128xf32>) -> tensor<64x128xf32>
  %xw1 = linalg.matmul ins(%x, %w1 : tensor<64x784xf32>, tensor<784x128xf32>)
                       outs(%z_h : tensor<64x128xf32>) -> tensor<64x128xf32>
  %b1b = linalg.broadcast ins(%b1 : tensor<128xf32>) outs(%e_h : tensor<64x128xf32>) dimensions = [0]
  %pre = linalg.add ins(%xw1, %b1b : tensor<64x128xf32>, tensor<64x128xf32>)
                    outs(%e_h : tensor<64x128xf32>) -> tensor<64x128xf32>
  %h = linalg.max ins(%pre, %z_h : tensor<64x128xf32>, tensor<64x128xf32>)
                  outs(%e_h : tensor<64x128xf32>) -> tensor<64x128xf32>

  // ---- forward: layer 2 ----
  %e_o = tensor.empty() : tensor<64x10xf32>
  %z_o = linalg.fill ins(%zero : f32) outs(%e_o : tensor<64x10xf32>) -> tensor<64x10xf32>
  %hw2 = linalg.matmul ins(%h, %w2 : tensor<64x128xf32>, tensor<128x10xf32>)
                       outs(%z_o : tensor<64x10xf32>) -> tensor<64x10xf32>
  %b2b = linalg.broadcast ins(%b2 : tensor<10xf32>) outs(%e_o : tensor<64x10xf32>) dimensions = [0]
  %logits = linalg.add ins(%hw2, %b2b : tensor<64x10xf32>, tensor<64x10xf32>)
                       outs(%e_o : tensor<64x10xf32>) -> tensor<64x10xf32>

  // ---- log-softmax ----
  %e_b = tensor.empty() : tensor<64xf32>
  %ninf_b = linalg.fill ins(%ninf : f32) outs(%e_b : tensor<64xf32>) -> tensor<64xf32>
  %max = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%logits : tensor<64x10xf32>) outs(%ninf_b : tensor<64xf32>) {
    ^bb0(%in: f32, %acc: f32):
      %m = arith.maximumf %in, %acc : f32
      linalg.yield %m : f32
  } -> tensor<64xf32>
  %shifted = linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%logits, %max : tensor<64x10xf32>, tensor<64xf32>) outs(%e_o : tensor<64x10xf32>) {
    ^bb0(%l: f32, %m: f32, %o: f32):
      %s = arith.subf %l, %m : f32
      linalg.yield %s : f32
  } -> tensor<64x10xf32>
  %exp = linalg.exp ins(%shifted : tensor<64x10xf32>) outs(%e_o : tensor<64x10xf32>) -> tensor<64x10xf32>
  %z_b = linalg.fill ins(%zero : f32) outs(%e_b : tensor<64xf32>) -> tensor<64xf32>
  %sumexp = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%exp : tensor<64x10xf32>) outs(%z_b : tensor<64xf32>) {
    ^bb0(%in: f32, %acc: f32):
      %a = arith.addf %in, %acc : f32
      linalg.yield %a : f32
  } -> tensor<64xf32>
  %lse = linalg.log ins(%sumexp : tensor<64xf32>) outs(%e_b : tensor<64xf32>) -> tensor<64xf32>
  %logp = linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%shifted, %lse : tensor<64x10xf32>, tensor<64xf32>) outs(%e_o : tensor<64x10xf32>) {
    ^bb0(%s: f32, %l: f32, %o: f32):
      %r = arith.subf %s, %l : f32
      linalg.yield %r : f32
  } -> tensor<64x10xf32>

  // ---- loss = -sum(y * logp) / B ----
  %e_s = tensor.empty() : tensor<f32>
  %z_s = linalg.fill ins(%zero : f32) outs(%e_s : tensor<f32>) -> tensor<f32>
  %nll = linalg.generic {indexing_maps = [#id2, #id2, #scalar2], iterator_types = ["reduction", "reduction"]}
      ins(%y, %logp : tensor<64x10xf32>, tensor<64x10xf32>) outs(%z_s : tensor<f32>) {
    ^bb0(%t: f32, %lp: f32, %acc: f32):
      %p = arith.mulf %t, %lp : f32
      %a = arith.subf %acc, %p : f32
      linalg.yield %a : f32
  } -> tensor<f32>
  %loss = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []}
      ins(%nll : tensor<f32>) outs(%e_s : tensor<f32>) {
    ^bb0(%n: f32, %o: f32):
      %l = arith.mulf %n, %inv_batch : f32
      linalg.yield %l : f32
  } -> tensor<f32>

  // ---- backward: dlogits = (softmax - y) * seed / B ----
  %dlogits = linalg.generic {indexing_maps = [#id2, #id2, #row, #scalar2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%exp, %y, %sumexp, %seed : tensor<64x10xf32>, tensor<64x10xf32>, tensor<64xf32>, tensor<f32>)
      outs(%e_o : tensor<64x10xf32>) {
    ^bb0(%ex: f32, %t: f32, %se: f32, %sd: f32, %o: f32):
      %sm = arith.divf %ex, %se : f32
      %d = arith.subf %sm, %t : f32
      %g = arith.mulf %d, %sd : f32
      %r = arith.mulf %g, %inv_batch : f32
      linalg.yield %r : f32
  } -> tensor<64x10xf32>

  // ---- layer 2 gradients ----
  %e_ht = tensor.empty() : tensor<128x64xf32>
  %ht = linalg.transpose ins(%h : tensor<64x128xf32>) outs(%e_ht : tensor<128x64xf32>) permutation = [1, 0]
  %e_w2 = tensor.empty() : tensor<128x10xf32>
  %z_w2 = linalg.fill ins(%zero : f32) outs(%e_w2 : tensor<128x10xf32>) -> tensor<128x10xf32>
  %dw2 = linalg.matmul ins(%ht, %dlogits : tensor<128x64xf32>, tensor<64x10xf32>)
                       outs(%z_w2 : tensor<128x10xf32>) -> tensor<128x10xf32>
  %e_c = tensor.empty() : tensor<10xf32>
  %z_c = linalg.fill ins(%zero : f32) outs(%e_c : tensor<10xf32>) -> tensor<10xf32>
  %db2 = linalg.reduce ins(%dlogits : tensor<64x10xf32>) outs(%z_c : tensor<10xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %a = arith.addf %in, %acc : f32
      linalg.yield %a : f32
    }

  // ---- layer 1 gradients ----
  %e_w2t = tensor.empty() : tensor<10x128xf32>
  %w2t = linalg.transpose ins(%w2 : tensor<128x10xf32>) outs(%e_w2t : tensor<10x128xf32>) permutation = [1, 0]
  %dh = linalg.matmul ins(%dlogits, %w2t : tensor<64x10xf32>, tensor<10x128xf32>)
                      outs(%z_h : tensor<64x128xf32>) -> tensor<64x128xf32>
  %dpre = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%dh, %pre : tensor<64x128xf32>, tensor<64x128xf32>) outs(%e_h : tensor<64x128xf32>) {
    ^bb0(%g: f32, %p: f32, %o: f32):
      %pos = arith.cmpf ogt, %p, %zero : f32
      %r = arith.select %pos, %g, %zero : f32
      linalg.yield %r : f32
  } -> tensor<64x128xf32>
  %e_xt = tensor.empty() : tensor<784x64xf32>
  %xt = linalg.transpose ins(%x : tensor<64x784xf32>) outs(%e_xt : tensor<784x64xf32>) permutation = [1, 0]
  %e_w1 = tensor.empty() : tensor<784x128xf32>
  %z_w1 = linalg.fill ins(%zero : f32) outs(%e_w1 : tensor<784x128xf32>) -> tensor<784x128xf32>
  %dw1 = linalg.matmul ins(%xt, %dpre : tensor<784x64xf32>, tensor<64x128xf32>)
                       outs(%z_w1 : tensor<784x128xf32>) -> tensor<784x128xf32>
  %e_hh = tensor.empty() : tensor<128xf32>
  %z_hh = linalg.fill ins(%zero : f32) outs(%e_hh : tensor<128xf32>) -> tensor<128xf32>
  %db1 = linalg.reduce ins(%dpre : tensor<64x128xf32>) outs(%z_hh : tensor<128xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %a = arith.addf %in, %acc : f32
      linalg.yield %a : f32
    }

  return %loss, %dw1, %db1, %dw2, %db2, %logits
      : tensor<f32>, tensor<784x128xf32>, tensor<128xf32>, tensor<128x10xf32>, tensor<10xf32>,
        tensor<64x10xf32>
}
