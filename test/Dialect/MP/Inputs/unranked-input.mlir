// A gradient function whose input is unranked (from the pipeline fuzzer:
// accumulate=2 read its shape as if it were ranked).
func.func @grad(%w: tensor<4xf32> {mp.param}, %x: tensor<*xf32> {mp.input},
                %seed: tensor<f32> {mp.grad_seed})
    -> (tensor<f32> {mp.loss}, tensor<4xf32> {mp.grad_of = 0 : i64}) {
  return %seed, %w : tensor<f32>, tensor<4xf32>
}
