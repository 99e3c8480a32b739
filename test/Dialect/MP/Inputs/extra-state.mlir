// A gradient function with state of its own (a running mean) besides the
// loss scale.
func.func @grad(%w: tensor<4xf32> {mp.param}, %seed: tensor<f32> {mp.grad_seed},
                %mean: tensor<4xf32> {mp.state = 0.0 : f32})
    -> (tensor<f32> {mp.loss}, tensor<4xf32> {mp.grad_of = 0 : i64},
        tensor<4xf32> {mp.updates = 2 : i64}) {
  return %seed, %w, %w : tensor<f32>, tensor<4xf32>, tensor<4xf32>
}
