// A gradient function whose gradients are inputs (times the seed), so the
// training step's optimizer arithmetic can be checked on chosen gradients.
#id2 = affine_map<(i, j) -> (i, j)>
#s2 = affine_map<(i, j) -> ()>
#id1 = affine_map<(i) -> (i)>
#s1 = affine_map<(i) -> ()>
func.func @g(%w: tensor<3x4xf32> {mp.param}, %b: tensor<4xf32> {mp.param},
             %gw: tensor<3x4xf32> {mp.input}, %gb: tensor<4xf32> {mp.input},
             %seed: tensor<f32> {mp.grad_seed})
    -> (tensor<f32> {mp.loss}, tensor<3x4xf32> {mp.grad_of = 0 : i64},
        tensor<4xf32> {mp.grad_of = 1 : i64}) {
  %e2 = tensor.empty() : tensor<3x4xf32>
  %dw = linalg.generic {indexing_maps = [#id2, #s2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%gw, %seed : tensor<3x4xf32>, tensor<f32>) outs(%e2 : tensor<3x4xf32>) {
  ^bb0(%g: f32, %s: f32, %o: f32):
    %m = arith.mulf %g, %s : f32
    linalg.yield %m : f32
  } -> tensor<3x4xf32>
  %e1 = tensor.empty() : tensor<4xf32>
  %db = linalg.generic {indexing_maps = [#id1, #s1, #id1], iterator_types = ["parallel"]}
      ins(%gb, %seed : tensor<4xf32>, tensor<f32>) outs(%e1 : tensor<4xf32>) {
  ^bb0(%g: f32, %s: f32, %o: f32):
    %m = arith.mulf %g, %s : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<f32>
  %z = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %loss = linalg.generic {indexing_maps = [#id2, #id2, #s2], iterator_types = ["reduction", "reduction"]}
      ins(%w, %gw : tensor<3x4xf32>, tensor<3x4xf32>) outs(%z : tensor<f32>) {
  ^bb0(%a: f32, %c: f32, %acc: f32):
    %p = arith.mulf %a, %c : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  } -> tensor<f32>
  return %loss, %dw, %db : tensor<f32>, tensor<3x4xf32>, tensor<4xf32>
}
