// A gradient function whose parameter has a dynamic size.
func.func @grad(%w: tensor<?xf32> {mp.param}, %x: tensor<4xf32> {mp.input},
                %seed: tensor<f32> {mp.grad_seed})
    -> (tensor<f32> {mp.loss}, tensor<?xf32> {mp.grad_of = 0 : i64}) {
  return %seed, %w : tensor<f32>, tensor<?xf32>
}
