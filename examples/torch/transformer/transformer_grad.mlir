// transformer: exported by scripts/export-torch.py (batch 64, seed 0) from examples/torch/models.py.
// Parameters in order: #0 pos (28, 32), #1 embed.weight (32, 28), #2 embed.bias (32,), #3 norm1.weight (32,), #4 norm1.bias (32,), #5 qkv.weight (96, 32), #6 qkv.bias (96,), #7 proj.weight (32, 32), #8 proj.bias (32,), #9 norm2.weight (32,), #10 norm2.bias (32,), #11 mlp1.weight (64, 32), #12 mlp1.bias (64,), #13 mlp2.weight (32, 64), #14 mlp2.bias (32,), #15 head.weight (10, 32), #16 head.bias (10,)
#map = affine_map<(d0, d1) -> (d1)>
#map1 = affine_map<(d0, d1) -> (d0, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map3 = affine_map<(d0, d1, d2) -> (d1, d2)>
#map4 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#map5 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map6 = affine_map<(d0, d1, d2) -> (d2)>
#map7 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map8 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map9 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
#map10 = affine_map<(d0, d1, d2) -> (d0, d2)>
#map11 = affine_map<(d0, d1) -> (d0)>
#map12 = affine_map<(d0, d1) -> (d0, 0)>
#map13 = affine_map<(d0) -> (d0)>
#map14 = affine_map<(d0) -> ()>
#map15 = affine_map<() -> ()>
#map16 = affine_map<(d0, d1) -> (0, d1)>
#map17 = affine_map<(d0, d1, d2) -> ()>
#map18 = affine_map<(d0, d1, d2) -> (0, d1, d2)>
module {
  func.func @transformer_grad(%arg0: tensor<28x32xf32> {mp.param}, %arg1: tensor<32x28xf32> {mp.param}, %arg2: tensor<32xf32> {mp.param}, %arg3: tensor<32xf32> {mp.param}, %arg4: tensor<32xf32> {mp.param}, %arg5: tensor<96x32xf32> {mp.param}, %arg6: tensor<96xf32> {mp.param}, %arg7: tensor<32x32xf32> {mp.param}, %arg8: tensor<32xf32> {mp.param}, %arg9: tensor<32xf32> {mp.param}, %arg10: tensor<32xf32> {mp.param}, %arg11: tensor<64x32xf32> {mp.param}, %arg12: tensor<64xf32> {mp.param}, %arg13: tensor<32x64xf32> {mp.param}, %arg14: tensor<32xf32> {mp.param}, %arg15: tensor<10x32xf32> {mp.param}, %arg16: tensor<10xf32> {mp.param}, %arg17: tensor<64x1x28x28xf32> {mp.input}, %arg18: tensor<64x10xf32> {mp.input}, %arg19: tensor<f32> {mp.grad_seed}) -> (tensor<f32> {mp.loss}, tensor<28x32xf32> {mp.grad_of = 0 : i64}, tensor<32x28xf32> {mp.grad_of = 1 : i64}, tensor<32xf32> {mp.grad_of = 2 : i64}, tensor<32xf32> {mp.grad_of = 3 : i64}, tensor<32xf32> {mp.grad_of = 4 : i64}, tensor<96x32xf32> {mp.grad_of = 5 : i64}, tensor<96xf32> {mp.grad_of = 6 : i64}, tensor<32x32xf32> {mp.grad_of = 7 : i64}, tensor<32xf32> {mp.grad_of = 8 : i64}, tensor<32xf32> {mp.grad_of = 9 : i64}, tensor<32xf32> {mp.grad_of = 10 : i64}, tensor<64x32xf32> {mp.grad_of = 11 : i64}, tensor<64xf32> {mp.grad_of = 12 : i64}, tensor<32x64xf32> {mp.grad_of = 13 : i64}, tensor<32xf32> {mp.grad_of = 14 : i64}, tensor<10x32xf32> {mp.grad_of = 15 : i64}, tensor<10xf32> {mp.grad_of = 16 : i64}, tensor<64x10xf32> {mp.output}) {
    %c0_i64 = arith.constant 0 : i64
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %cst_1 = arith.constant dense<0.000000e+00> : tensor<f32>
    %cst_2 = arith.constant 1.000000e-05 : f64
    %cst_3 = arith.constant 3.200000e+01 : f32
    %cst_4 = arith.constant 4.000000e+00 : f32
    %cst_5 = arith.constant 2.800000e+01 : f32
    %cst_6 = arith.constant 6.400000e+01 : f32
    %0 = tensor.empty() : tensor<28x32xf32>
    %transposed = linalg.transpose ins(%arg1 : tensor<32x28xf32>) outs(%0 : tensor<28x32xf32>) permutation = [1, 0] 
    %collapsed = tensor.collapse_shape %arg17 [[0, 1, 2], [3]] : tensor<64x1x28x28xf32> into tensor<1792x28xf32>
    %1 = tensor.empty() : tensor<1792x32xf32>
    %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<1792x32xf32>) -> tensor<1792x32xf32>
    %3 = linalg.matmul ins(%collapsed, %transposed : tensor<1792x28xf32>, tensor<28x32xf32>) outs(%2 : tensor<1792x32xf32>) -> tensor<1792x32xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%arg2, %3 : tensor<32xf32>, tensor<1792x32xf32>) outs(%1 : tensor<1792x32xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %204 = arith.addf %in, %in_80 : f32
      linalg.yield %204 : f32
    } -> tensor<1792x32xf32>
    %expanded = tensor.expand_shape %4 [[0, 1], [2]] output_shape [64, 28, 32] : tensor<1792x32xf32> into tensor<64x28x32xf32>
    %5 = tensor.empty() : tensor<64x28x32xf32>
    %6 = linalg.generic {indexing_maps = [#map2, #map3, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded, %arg0 : tensor<64x28x32xf32>, tensor<28x32xf32>) outs(%5 : tensor<64x28x32xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %204 = arith.addf %in, %in_80 : f32
      linalg.yield %204 : f32
    } -> tensor<64x28x32xf32>
    %7 = tensor.empty() : tensor<64x28x1xf32>
    %8 = linalg.fill ins(%cst : f32) outs(%7 : tensor<64x28x1xf32>) -> tensor<64x28x1xf32>
    %9 = linalg.generic {indexing_maps = [#map2, #map4], iterator_types = ["parallel", "parallel", "reduction"]} ins(%6 : tensor<64x28x32xf32>) outs(%8 : tensor<64x28x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %204 = arith.addf %in, %out : f32
      linalg.yield %204 : f32
    } -> tensor<64x28x1xf32>
    %10 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%9 : tensor<64x28x1xf32>) outs(%7 : tensor<64x28x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %204 = arith.divf %in, %cst_3 : f32
      linalg.yield %204 : f32
    } -> tensor<64x28x1xf32>
    %collapsed_7 = tensor.collapse_shape %10 [[0], [1, 2]] : tensor<64x28x1xf32> into tensor<64x28xf32>
    %11 = linalg.generic {indexing_maps = [#map5, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_7 : tensor<64x28xf32>) outs(%5 : tensor<64x28x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<64x28x32xf32>
    %12 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%6, %11 : tensor<64x28x32xf32>, tensor<64x28x32xf32>) outs(%5 : tensor<64x28x32xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %204 = arith.subf %in, %in_80 : f32
      linalg.yield %204 : f32
    } -> tensor<64x28x32xf32>
    %13 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%12, %12 : tensor<64x28x32xf32>, tensor<64x28x32xf32>) outs(%5 : tensor<64x28x32xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %204 = arith.mulf %in, %in_80 : f32
      linalg.yield %204 : f32
    } -> tensor<64x28x32xf32>
    %14 = linalg.generic {indexing_maps = [#map2, #map4], iterator_types = ["parallel", "parallel", "reduction"]} ins(%13 : tensor<64x28x32xf32>) outs(%8 : tensor<64x28x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %204 = arith.addf %in, %out : f32
      linalg.yield %204 : f32
    } -> tensor<64x28x1xf32>
    %15 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%14 : tensor<64x28x1xf32>) outs(%7 : tensor<64x28x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %204 = arith.divf %in, %cst_3 : f32
      linalg.yield %204 : f32
    } -> tensor<64x28x1xf32>
    %16 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%15 : tensor<64x28x1xf32>) outs(%7 : tensor<64x28x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %204 = arith.truncf %cst_2 : f64 to f32
      %205 = arith.addf %in, %204 : f32
      linalg.yield %205 : f32
    } -> tensor<64x28x1xf32>
    %17 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%16 : tensor<64x28x1xf32>) outs(%7 : tensor<64x28x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %204 = math.rsqrt %in : f32
      linalg.yield %204 : f32
    } -> tensor<64x28x1xf32>
    %collapsed_8 = tensor.collapse_shape %17 [[0], [1, 2]] : tensor<64x28x1xf32> into tensor<64x28xf32>
    %18 = linalg.generic {indexing_maps = [#map5, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_8 : tensor<64x28xf32>) outs(%5 : tensor<64x28x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<64x28x32xf32>
    %19 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%12, %18 : tensor<64x28x32xf32>, tensor<64x28x32xf32>) outs(%5 : tensor<64x28x32xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %204 = arith.mulf %in, %in_80 : f32
      linalg.yield %204 : f32
    } -> tensor<64x28x32xf32>
    %20 = linalg.generic {indexing_maps = [#map2, #map6, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%19, %arg3 : tensor<64x28x32xf32>, tensor<32xf32>) outs(%5 : tensor<64x28x32xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %204 = arith.mulf %in, %in_80 : f32
      linalg.yield %204 : f32
    } -> tensor<64x28x32xf32>
    %21 = linalg.generic {indexing_maps = [#map2, #map6, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%20, %arg4 : tensor<64x28x32xf32>, tensor<32xf32>) outs(%5 : tensor<64x28x32xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %204 = arith.addf %in, %in_80 : f32
      linalg.yield %204 : f32
    } -> tensor<64x28x32xf32>
    %22 = tensor.empty() : tensor<32x96xf32>
    %transposed_9 = linalg.transpose ins(%arg5 : tensor<96x32xf32>) outs(%22 : tensor<32x96xf32>) permutation = [1, 0] 
    %collapsed_10 = tensor.collapse_shape %21 [[0, 1], [2]] : tensor<64x28x32xf32> into tensor<1792x32xf32>
    %23 = tensor.empty() : tensor<1792x96xf32>
    %24 = linalg.fill ins(%cst : f32) outs(%23 : tensor<1792x96xf32>) -> tensor<1792x96xf32>
    %25 = linalg.matmul ins(%collapsed_10, %transposed_9 : tensor<1792x32xf32>, tensor<32x96xf32>) outs(%24 : tensor<1792x96xf32>) -> tensor<1792x96xf32>
    %26 = linalg.generic {indexing_maps = [#map, #map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%arg6, %25 : tensor<96xf32>, tensor<1792x96xf32>) outs(%23 : tensor<1792x96xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %204 = arith.addf %in, %in_80 : f32
      linalg.yield %204 : f32
    } -> tensor<1792x96xf32>
    %expanded_11 = tensor.expand_shape %26 [[0, 1], [2]] output_shape [64, 28, 96] : tensor<1792x96xf32> into tensor<64x28x96xf32>
    %extracted_slice = tensor.extract_slice %expanded_11[0, 0, 0] [64, 28, 32] [1, 1, 1] : tensor<64x28x96xf32> to tensor<64x28x32xf32>
    %extracted_slice_12 = tensor.extract_slice %expanded_11[0, 0, 32] [64, 28, 32] [1, 1, 1] : tensor<64x28x96xf32> to tensor<64x28x32xf32>
    %extracted_slice_13 = tensor.extract_slice %expanded_11[0, 0, 64] [64, 28, 32] [1, 1, 1] : tensor<64x28x96xf32> to tensor<64x28x32xf32>
    %expanded_14 = tensor.expand_shape %extracted_slice [[0], [1], [2, 3]] output_shape [64, 28, 2, 16] : tensor<64x28x32xf32> into tensor<64x28x2x16xf32>
    %27 = tensor.empty() : tensor<64x2x28x16xf32>
    %transposed_15 = linalg.transpose ins(%expanded_14 : tensor<64x28x2x16xf32>) outs(%27 : tensor<64x2x28x16xf32>) permutation = [0, 2, 1, 3] 
    %expanded_16 = tensor.expand_shape %extracted_slice_12 [[0], [1], [2, 3]] output_shape [64, 28, 2, 16] : tensor<64x28x32xf32> into tensor<64x28x2x16xf32>
    %28 = tensor.empty() : tensor<64x2x16x28xf32>
    %transposed_17 = linalg.transpose ins(%expanded_16 : tensor<64x28x2x16xf32>) outs(%28 : tensor<64x2x16x28xf32>) permutation = [0, 2, 3, 1] 
    %collapsed_18 = tensor.collapse_shape %transposed_15 [[0, 1], [2], [3]] : tensor<64x2x28x16xf32> into tensor<128x28x16xf32>
    %collapsed_19 = tensor.collapse_shape %transposed_17 [[0, 1], [2], [3]] : tensor<64x2x16x28xf32> into tensor<128x16x28xf32>
    %29 = tensor.empty() : tensor<128x28x28xf32>
    %30 = linalg.fill ins(%cst : f32) outs(%29 : tensor<128x28x28xf32>) -> tensor<128x28x28xf32>
    %31 = linalg.batch_matmul ins(%collapsed_18, %collapsed_19 : tensor<128x28x16xf32>, tensor<128x16x28xf32>) outs(%30 : tensor<128x28x28xf32>) -> tensor<128x28x28xf32>
    %expanded_20 = tensor.expand_shape %31 [[0, 1], [2], [3]] output_shape [64, 2, 28, 28] : tensor<128x28x28xf32> into tensor<64x2x28x28xf32>
    %32 = tensor.empty() : tensor<64x2x28x28xf32>
    %33 = linalg.generic {indexing_maps = [#map7, #map7], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_20 : tensor<64x2x28x28xf32>) outs(%32 : tensor<64x2x28x28xf32>) {
    ^bb0(%in: f32, %out: f32):
      %204 = arith.divf %in, %cst_4 : f32
      linalg.yield %204 : f32
    } -> tensor<64x2x28x28xf32>
    %34 = tensor.empty() : tensor<64x2x28xi64>
    %35 = linalg.fill ins(%c0_i64 : i64) outs(%34 : tensor<64x2x28xi64>) -> tensor<64x2x28xi64>
    %36 = tensor.empty() : tensor<64x2x28xf32>
    %37 = linalg.fill ins(%cst_0 : f32) outs(%36 : tensor<64x2x28xf32>) -> tensor<64x2x28xf32>
    %38:2 = linalg.generic {indexing_maps = [#map7, #map8, #map8], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%33 : tensor<64x2x28x28xf32>) outs(%37, %35 : tensor<64x2x28xf32>, tensor<64x2x28xi64>) {
    ^bb0(%in: f32, %out: f32, %out_80: i64):
      %204 = linalg.index 3 : index
      %205 = arith.index_cast %204 : index to i64
      %206 = arith.maximumf %in, %out : f32
      %207 = arith.cmpf ogt, %in, %out : f32
      %208 = arith.select %207, %205, %out_80 : i64
      linalg.yield %206, %208 : f32, i64
    } -> (tensor<64x2x28xf32>, tensor<64x2x28xi64>)
    %expanded_21 = tensor.expand_shape %38#0 [[0], [1], [2, 3]] output_shape [64, 2, 28, 1] : tensor<64x2x28xf32> into tensor<64x2x28x1xf32>
    %39 = linalg.generic {indexing_maps = [#map7, #map9, #map7], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%33, %expanded_21 : tensor<64x2x28x28xf32>, tensor<64x2x28x1xf32>) outs(%32 : tensor<64x2x28x28xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %204 = arith.subf %in, %in_80 : f32
      linalg.yield %204 : f32
    } -> tensor<64x2x28x28xf32>
    %40 = linalg.generic {indexing_maps = [#map7, #map7], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%39 : tensor<64x2x28x28xf32>) outs(%32 : tensor<64x2x28x28xf32>) {
    ^bb0(%in: f32, %out: f32):
      %204 = math.exp %in : f32
      linalg.yield %204 : f32
    } -> tensor<64x2x28x28xf32>
    %41 = tensor.empty() : tensor<64x2x28x1xf32>
    %42 = linalg.fill ins(%cst : f32) outs(%41 : tensor<64x2x28x1xf32>) -> tensor<64x2x28x1xf32>
    %43 = linalg.generic {indexing_maps = [#map7, #map9], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%40 : tensor<64x2x28x28xf32>) outs(%42 : tensor<64x2x28x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %204 = arith.addf %in, %out : f32
      linalg.yield %204 : f32
    } -> tensor<64x2x28x1xf32>
    %44 = linalg.generic {indexing_maps = [#map7, #map9, #map7], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%40, %43 : tensor<64x2x28x28xf32>, tensor<64x2x28x1xf32>) outs(%32 : tensor<64x2x28x28xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %204 = arith.divf %in, %in_80 : f32
      linalg.yield %204 : f32
    } -> tensor<64x2x28x28xf32>
    %expanded_22 = tensor.expand_shape %extracted_slice_13 [[0], [1], [2, 3]] output_shape [64, 28, 2, 16] : tensor<64x28x32xf32> into tensor<64x28x2x16xf32>
    %transposed_23 = linalg.transpose ins(%expanded_22 : tensor<64x28x2x16xf32>) outs(%27 : tensor<64x2x28x16xf32>) permutation = [0, 2, 1, 3] 
    %collapsed_24 = tensor.collapse_shape %44 [[0, 1], [2], [3]] : tensor<64x2x28x28xf32> into tensor<128x28x28xf32>
    %collapsed_25 = tensor.collapse_shape %transposed_23 [[0, 1], [2], [3]] : tensor<64x2x28x16xf32> into tensor<128x28x16xf32>
    %45 = tensor.empty() : tensor<128x28x16xf32>
    %46 = linalg.fill ins(%cst : f32) outs(%45 : tensor<128x28x16xf32>) -> tensor<128x28x16xf32>
    %47 = linalg.batch_matmul ins(%collapsed_24, %collapsed_25 : tensor<128x28x28xf32>, tensor<128x28x16xf32>) outs(%46 : tensor<128x28x16xf32>) -> tensor<128x28x16xf32>
    %expanded_26 = tensor.expand_shape %47 [[0, 1], [2], [3]] output_shape [64, 2, 28, 16] : tensor<128x28x16xf32> into tensor<64x2x28x16xf32>
    %48 = tensor.empty() : tensor<64x28x2x16xf32>
    %transposed_27 = linalg.transpose ins(%expanded_26 : tensor<64x2x28x16xf32>) outs(%48 : tensor<64x28x2x16xf32>) permutation = [0, 2, 1, 3] 
    %49 = tensor.empty() : tensor<32x32xf32>
    %transposed_28 = linalg.transpose ins(%arg7 : tensor<32x32xf32>) outs(%49 : tensor<32x32xf32>) permutation = [1, 0] 
    %collapsed_29 = tensor.collapse_shape %transposed_27 [[0, 1], [2, 3]] : tensor<64x28x2x16xf32> into tensor<1792x32xf32>
    %50 = linalg.matmul ins(%collapsed_29, %transposed_28 : tensor<1792x32xf32>, tensor<32x32xf32>) outs(%2 : tensor<1792x32xf32>) -> tensor<1792x32xf32>
    %51 = linalg.generic {indexing_maps = [#map, #map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%arg8, %50 : tensor<32xf32>, tensor<1792x32xf32>) outs(%1 : tensor<1792x32xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %204 = arith.addf %in, %in_80 : f32
      linalg.yield %204 : f32
    } -> tensor<1792x32xf32>
    %expanded_30 = tensor.expand_shape %51 [[0, 1], [2]] output_shape [64, 28, 32] : tensor<1792x32xf32> into tensor<64x28x32xf32>
    %52 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%6, %expanded_30 : tensor<64x28x32xf32>, tensor<64x28x32xf32>) outs(%5 : tensor<64x28x32xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %204 = arith.addf %in, %in_80 : f32
      linalg.yield %204 : f32
    } -> tensor<64x28x32xf32>
    %53 = linalg.generic {indexing_maps = [#map2, #map4], iterator_types = ["parallel", "parallel", "reduction"]} ins(%52 : tensor<64x28x32xf32>) outs(%8 : tensor<64x28x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %204 = arith.addf %in, %out : f32
      linalg.yield %204 : f32
    } -> tensor<64x28x1xf32>
    %54 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%53 : tensor<64x28x1xf32>) outs(%7 : tensor<64x28x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %204 = arith.divf %in, %cst_3 : f32
      linalg.yield %204 : f32
    } -> tensor<64x28x1xf32>
    %collapsed_31 = tensor.collapse_shape %54 [[0], [1, 2]] : tensor<64x28x1xf32> into tensor<64x28xf32>
    %55 = linalg.generic {indexing_maps = [#map5, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_31 : tensor<64x28xf32>) outs(%5 : tensor<64x28x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<64x28x32xf32>
    %56 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%52, %55 : tensor<64x28x32xf32>, tensor<64x28x32xf32>) outs(%5 : tensor<64x28x32xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %204 = arith.subf %in, %in_80 : f32
      linalg.yield %204 : f32
    } -> tensor<64x28x32xf32>
    %57 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%56, %56 : tensor<64x28x32xf32>, tensor<64x28x32xf32>) outs(%5 : tensor<64x28x32xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %204 = arith.mulf %in, %in_80 : f32
      linalg.yield %204 : f32
    } -> tensor<64x28x32xf32>
    %58 = linalg.generic {indexing_maps = [#map2, #map4], iterator_types = ["parallel", "parallel", "reduction"]} ins(%57 : tensor<64x28x32xf32>) outs(%8 : tensor<64x28x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %204 = arith.addf %in, %out : f32
      linalg.yield %204 : f32
    } -> tensor<64x28x1xf32>
    %59 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%58 : tensor<64x28x1xf32>) outs(%7 : tensor<64x28x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %204 = arith.divf %in, %cst_3 : f32
      linalg.yield %204 : f32
    } -> tensor<64x28x1xf32>
    %60 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%59 : tensor<64x28x1xf32>) outs(%7 : tensor<64x28x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %204 = arith.truncf %cst_2 : f64 to f32
      %205 = arith.addf %in, %204 : f32
      linalg.yield %205 : f32
    } -> tensor<64x28x1xf32>
    %61 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%60 : tensor<64x28x1xf32>) outs(%7 : tensor<64x28x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %204 = math.rsqrt %in : f32
      linalg.yield %204 : f32
    } -> tensor<64x28x1xf32>
    %collapsed_32 = tensor.collapse_shape %61 [[0], [1, 2]] : tensor<64x28x1xf32> into tensor<64x28xf32>
    %62 = linalg.generic {indexing_maps = [#map5, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_32 : tensor<64x28xf32>) outs(%5 : tensor<64x28x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<64x28x32xf32>
    %63 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%56, %62 : tensor<64x28x32xf32>, tensor<64x28x32xf32>) outs(%5 : tensor<64x28x32xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %204 = arith.mulf %in, %in_80 : f32
      linalg.yield %204 : f32
    } -> tensor<64x28x32xf32>
    %64 = linalg.generic {indexing_maps = [#map2, #map6, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%63, %arg9 : tensor<64x28x32xf32>, tensor<32xf32>) outs(%5 : tensor<64x28x32xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %204 = arith.mulf %in, %in_80 : f32
      linalg.yield %204 : f32
    } -> tensor<64x28x32xf32>
    %65 = linalg.generic {indexing_maps = [#map2, #map6, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%64, %arg10 : tensor<64x28x32xf32>, tensor<32xf32>) outs(%5 : tensor<64x28x32xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %204 = arith.addf %in, %in_80 : f32
      linalg.yield %204 : f32
    } -> tensor<64x28x32xf32>
    %66 = tensor.empty() : tensor<32x64xf32>
    %transposed_33 = linalg.transpose ins(%arg11 : tensor<64x32xf32>) outs(%66 : tensor<32x64xf32>) permutation = [1, 0] 
    %collapsed_34 = tensor.collapse_shape %65 [[0, 1], [2]] : tensor<64x28x32xf32> into tensor<1792x32xf32>
    %67 = tensor.empty() : tensor<1792x64xf32>
    %68 = linalg.fill ins(%cst : f32) outs(%67 : tensor<1792x64xf32>) -> tensor<1792x64xf32>
    %69 = linalg.matmul ins(%collapsed_34, %transposed_33 : tensor<1792x32xf32>, tensor<32x64xf32>) outs(%68 : tensor<1792x64xf32>) -> tensor<1792x64xf32>
    %70 = linalg.generic {indexing_maps = [#map, #map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%arg12, %69 : tensor<64xf32>, tensor<1792x64xf32>) outs(%67 : tensor<1792x64xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %204 = arith.addf %in, %in_80 : f32
      linalg.yield %204 : f32
    } -> tensor<1792x64xf32>
    %expanded_35 = tensor.expand_shape %70 [[0, 1], [2]] output_shape [64, 28, 64] : tensor<1792x64xf32> into tensor<64x28x64xf32>
    %71 = tensor.empty() : tensor<64x28x64xf32>
    %72 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_35 : tensor<64x28x64xf32>) outs(%71 : tensor<64x28x64xf32>) {
    ^bb0(%in: f32, %out: f32):
      %204 = arith.cmpf ugt, %in, %cst : f32
      %205 = arith.select %204, %in, %cst : f32
      linalg.yield %205 : f32
    } -> tensor<64x28x64xf32>
    %73 = tensor.empty() : tensor<64x32xf32>
    %transposed_36 = linalg.transpose ins(%arg13 : tensor<32x64xf32>) outs(%73 : tensor<64x32xf32>) permutation = [1, 0] 
    %collapsed_37 = tensor.collapse_shape %72 [[0, 1], [2]] : tensor<64x28x64xf32> into tensor<1792x64xf32>
    %74 = linalg.matmul ins(%collapsed_37, %transposed_36 : tensor<1792x64xf32>, tensor<64x32xf32>) outs(%2 : tensor<1792x32xf32>) -> tensor<1792x32xf32>
    %75 = linalg.generic {indexing_maps = [#map, #map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%arg14, %74 : tensor<32xf32>, tensor<1792x32xf32>) outs(%1 : tensor<1792x32xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %204 = arith.addf %in, %in_80 : f32
      linalg.yield %204 : f32
    } -> tensor<1792x32xf32>
    %expanded_38 = tensor.expand_shape %75 [[0, 1], [2]] output_shape [64, 28, 32] : tensor<1792x32xf32> into tensor<64x28x32xf32>
    %76 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%52, %expanded_38 : tensor<64x28x32xf32>, tensor<64x28x32xf32>) outs(%5 : tensor<64x28x32xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %204 = arith.addf %in, %in_80 : f32
      linalg.yield %204 : f32
    } -> tensor<64x28x32xf32>
    %77 = linalg.fill ins(%cst : f32) outs(%73 : tensor<64x32xf32>) -> tensor<64x32xf32>
    %78 = linalg.generic {indexing_maps = [#map2, #map10], iterator_types = ["parallel", "reduction", "parallel"]} ins(%76 : tensor<64x28x32xf32>) outs(%77 : tensor<64x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      %204 = arith.addf %in, %out : f32
      linalg.yield %204 : f32
    } -> tensor<64x32xf32>
    %79 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%78 : tensor<64x32xf32>) outs(%73 : tensor<64x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      %204 = arith.divf %in, %cst_5 : f32
      linalg.yield %204 : f32
    } -> tensor<64x32xf32>
    %80 = tensor.empty() : tensor<32x10xf32>
    %transposed_39 = linalg.transpose ins(%arg15 : tensor<10x32xf32>) outs(%80 : tensor<32x10xf32>) permutation = [1, 0] 
    %81 = tensor.empty() : tensor<64x10xf32>
    %82 = linalg.fill ins(%cst : f32) outs(%81 : tensor<64x10xf32>) -> tensor<64x10xf32>
    %83 = linalg.matmul ins(%79, %transposed_39 : tensor<64x32xf32>, tensor<32x10xf32>) outs(%82 : tensor<64x10xf32>) -> tensor<64x10xf32>
    %84 = linalg.generic {indexing_maps = [#map, #map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%arg16, %83 : tensor<10xf32>, tensor<64x10xf32>) outs(%81 : tensor<64x10xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %204 = arith.addf %in, %in_80 : f32
      linalg.yield %204 : f32
    } -> tensor<64x10xf32>
    %85 = tensor.empty() : tensor<64xi64>
    %86 = linalg.fill ins(%c0_i64 : i64) outs(%85 : tensor<64xi64>) -> tensor<64xi64>
    %87 = tensor.empty() : tensor<64xf32>
    %88 = linalg.fill ins(%cst_0 : f32) outs(%87 : tensor<64xf32>) -> tensor<64xf32>
    %89:2 = linalg.generic {indexing_maps = [#map1, #map11, #map11], iterator_types = ["parallel", "reduction"]} ins(%84 : tensor<64x10xf32>) outs(%88, %86 : tensor<64xf32>, tensor<64xi64>) {
    ^bb0(%in: f32, %out: f32, %out_80: i64):
      %204 = linalg.index 1 : index
      %205 = arith.index_cast %204 : index to i64
      %206 = arith.maximumf %in, %out : f32
      %207 = arith.cmpf ogt, %in, %out : f32
      %208 = arith.select %207, %205, %out_80 : i64
      linalg.yield %206, %208 : f32, i64
    } -> (tensor<64xf32>, tensor<64xi64>)
    %expanded_40 = tensor.expand_shape %89#0 [[0, 1]] output_shape [64, 1] : tensor<64xf32> into tensor<64x1xf32>
    %90 = linalg.generic {indexing_maps = [#map1, #map12, #map1], iterator_types = ["parallel", "parallel"]} ins(%84, %expanded_40 : tensor<64x10xf32>, tensor<64x1xf32>) outs(%81 : tensor<64x10xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %204 = arith.subf %in, %in_80 : f32
      linalg.yield %204 : f32
    } -> tensor<64x10xf32>
    %91 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%90 : tensor<64x10xf32>) outs(%81 : tensor<64x10xf32>) {
    ^bb0(%in: f32, %out: f32):
      %204 = math.exp %in : f32
      linalg.yield %204 : f32
    } -> tensor<64x10xf32>
    %92 = tensor.empty() : tensor<64x1xf32>
    %93 = linalg.fill ins(%cst : f32) outs(%92 : tensor<64x1xf32>) -> tensor<64x1xf32>
    %94 = linalg.generic {indexing_maps = [#map1, #map12], iterator_types = ["parallel", "reduction"]} ins(%91 : tensor<64x10xf32>) outs(%93 : tensor<64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %204 = arith.addf %in, %out : f32
      linalg.yield %204 : f32
    } -> tensor<64x1xf32>
    %95 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%94 : tensor<64x1xf32>) outs(%92 : tensor<64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %204 = math.log %in : f32
      linalg.yield %204 : f32
    } -> tensor<64x1xf32>
    %96 = linalg.generic {indexing_maps = [#map1, #map12, #map1], iterator_types = ["parallel", "parallel"]} ins(%90, %95 : tensor<64x10xf32>, tensor<64x1xf32>) outs(%81 : tensor<64x10xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %204 = arith.subf %in, %in_80 : f32
      linalg.yield %204 : f32
    } -> tensor<64x10xf32>
    %97 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%arg18, %96 : tensor<64x10xf32>, tensor<64x10xf32>) outs(%81 : tensor<64x10xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %204 = arith.mulf %in, %in_80 : f32
      linalg.yield %204 : f32
    } -> tensor<64x10xf32>
    %98 = linalg.fill ins(%cst : f32) outs(%87 : tensor<64xf32>) -> tensor<64xf32>
    %99 = linalg.generic {indexing_maps = [#map1, #map11], iterator_types = ["parallel", "reduction"]} ins(%97 : tensor<64x10xf32>) outs(%98 : tensor<64xf32>) {
    ^bb0(%in: f32, %out: f32):
      %204 = arith.addf %in, %out : f32
      linalg.yield %204 : f32
    } -> tensor<64xf32>
    %100 = tensor.empty() : tensor<f32>
    %101 = linalg.fill ins(%cst : f32) outs(%100 : tensor<f32>) -> tensor<f32>
    %102 = linalg.generic {indexing_maps = [#map13, #map14], iterator_types = ["reduction"]} ins(%99 : tensor<64xf32>) outs(%101 : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %204 = arith.addf %in, %out : f32
      linalg.yield %204 : f32
    } -> tensor<f32>
    %103 = linalg.generic {indexing_maps = [#map15, #map15], iterator_types = []} ins(%102 : tensor<f32>) outs(%100 : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %204 = arith.divf %in, %cst_6 : f32
      linalg.yield %204 : f32
    } -> tensor<f32>
    %104 = linalg.generic {indexing_maps = [#map15, #map15], iterator_types = []} ins(%103 : tensor<f32>) outs(%100 : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %204 = arith.negf %in : f32
      linalg.yield %204 : f32
    } -> tensor<f32>
    %105 = linalg.generic {indexing_maps = [#map15, #map15], iterator_types = []} ins(%arg19 : tensor<f32>) outs(%100 : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %204 = arith.negf %in : f32
      linalg.yield %204 : f32
    } -> tensor<f32>
    %106 = linalg.generic {indexing_maps = [#map14, #map13], iterator_types = ["parallel"]} ins(%105 : tensor<f32>) outs(%87 : tensor<64xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<64xf32>
    %107 = linalg.generic {indexing_maps = [#map13, #map13], iterator_types = ["parallel"]} ins(%106 : tensor<64xf32>) outs(%87 : tensor<64xf32>) {
    ^bb0(%in: f32, %out: f32):
      %204 = arith.divf %in, %cst_6 : f32
      linalg.yield %204 : f32
    } -> tensor<64xf32>
    %108 = linalg.generic {indexing_maps = [#map11, #map1], iterator_types = ["parallel", "parallel"]} ins(%107 : tensor<64xf32>) outs(%81 : tensor<64x10xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<64x10xf32>
    %109 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%108, %arg18 : tensor<64x10xf32>, tensor<64x10xf32>) outs(%81 : tensor<64x10xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %204 = arith.mulf %in, %in_80 : f32
      linalg.yield %204 : f32
    } -> tensor<64x10xf32>
    %110 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%96 : tensor<64x10xf32>) outs(%81 : tensor<64x10xf32>) {
    ^bb0(%in: f32, %out: f32):
      %204 = math.exp %in : f32
      linalg.yield %204 : f32
    } -> tensor<64x10xf32>
    %111 = linalg.generic {indexing_maps = [#map1, #map12], iterator_types = ["parallel", "reduction"]} ins(%109 : tensor<64x10xf32>) outs(%93 : tensor<64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %204 = arith.addf %in, %out : f32
      linalg.yield %204 : f32
    } -> tensor<64x1xf32>
    %112 = linalg.generic {indexing_maps = [#map1, #map12, #map1], iterator_types = ["parallel", "parallel"]} ins(%110, %111 : tensor<64x10xf32>, tensor<64x1xf32>) outs(%81 : tensor<64x10xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %204 = arith.mulf %in, %in_80 : f32
      linalg.yield %204 : f32
    } -> tensor<64x10xf32>
    %113 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%109, %112 : tensor<64x10xf32>, tensor<64x10xf32>) outs(%81 : tensor<64x10xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %204 = arith.subf %in, %in_80 : f32
      linalg.yield %204 : f32
    } -> tensor<64x10xf32>
    %114 = linalg.matmul ins(%113, %arg15 : tensor<64x10xf32>, tensor<10x32xf32>) outs(%77 : tensor<64x32xf32>) -> tensor<64x32xf32>
    %115 = tensor.empty() : tensor<10x64xf32>
    %transposed_41 = linalg.transpose ins(%113 : tensor<64x10xf32>) outs(%115 : tensor<10x64xf32>) permutation = [1, 0] 
    %116 = tensor.empty() : tensor<10x32xf32>
    %117 = linalg.fill ins(%cst : f32) outs(%116 : tensor<10x32xf32>) -> tensor<10x32xf32>
    %118 = linalg.matmul ins(%transposed_41, %79 : tensor<10x64xf32>, tensor<64x32xf32>) outs(%117 : tensor<10x32xf32>) -> tensor<10x32xf32>
    %119 = tensor.empty() : tensor<1x10xf32>
    %120 = linalg.fill ins(%cst : f32) outs(%119 : tensor<1x10xf32>) -> tensor<1x10xf32>
    %121 = linalg.generic {indexing_maps = [#map1, #map16], iterator_types = ["reduction", "parallel"]} ins(%113 : tensor<64x10xf32>) outs(%120 : tensor<1x10xf32>) {
    ^bb0(%in: f32, %out: f32):
      %204 = arith.addf %in, %out : f32
      linalg.yield %204 : f32
    } -> tensor<1x10xf32>
    %collapsed_42 = tensor.collapse_shape %121 [[0, 1]] : tensor<1x10xf32> into tensor<10xf32>
    %122 = linalg.generic {indexing_maps = [#map10, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%114 : tensor<64x32xf32>) outs(%5 : tensor<64x28x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<64x28x32xf32>
    %123 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%122 : tensor<64x28x32xf32>) outs(%5 : tensor<64x28x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      %204 = arith.divf %in, %cst_5 : f32
      linalg.yield %204 : f32
    } -> tensor<64x28x32xf32>
    %collapsed_43 = tensor.collapse_shape %123 [[0, 1], [2]] : tensor<64x28x32xf32> into tensor<1792x32xf32>
    %124 = linalg.matmul ins(%collapsed_43, %arg13 : tensor<1792x32xf32>, tensor<32x64xf32>) outs(%68 : tensor<1792x64xf32>) -> tensor<1792x64xf32>
    %125 = tensor.empty() : tensor<32x1792xf32>
    %transposed_44 = linalg.transpose ins(%collapsed_43 : tensor<1792x32xf32>) outs(%125 : tensor<32x1792xf32>) permutation = [1, 0] 
    %126 = linalg.fill ins(%cst : f32) outs(%66 : tensor<32x64xf32>) -> tensor<32x64xf32>
    %127 = linalg.matmul ins(%transposed_44, %collapsed_37 : tensor<32x1792xf32>, tensor<1792x64xf32>) outs(%126 : tensor<32x64xf32>) -> tensor<32x64xf32>
    %128 = tensor.empty() : tensor<1x32xf32>
    %129 = linalg.fill ins(%cst : f32) outs(%128 : tensor<1x32xf32>) -> tensor<1x32xf32>
    %130 = linalg.generic {indexing_maps = [#map1, #map16], iterator_types = ["reduction", "parallel"]} ins(%collapsed_43 : tensor<1792x32xf32>) outs(%129 : tensor<1x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      %204 = arith.addf %in, %out : f32
      linalg.yield %204 : f32
    } -> tensor<1x32xf32>
    %collapsed_45 = tensor.collapse_shape %130 [[0, 1]] : tensor<1x32xf32> into tensor<32xf32>
    %expanded_46 = tensor.expand_shape %124 [[0, 1], [2]] output_shape [64, 28, 64] : tensor<1792x64xf32> into tensor<64x28x64xf32>
    %131 = tensor.empty() : tensor<64x28x64xi1>
    %132 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%72 : tensor<64x28x64xf32>) outs(%131 : tensor<64x28x64xi1>) {
    ^bb0(%in: f32, %out: i1):
      %204 = arith.cmpf ole, %in, %cst : f32
      linalg.yield %204 : i1
    } -> tensor<64x28x64xi1>
    %133 = linalg.generic {indexing_maps = [#map2, #map17, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%132, %cst_1, %expanded_46 : tensor<64x28x64xi1>, tensor<f32>, tensor<64x28x64xf32>) outs(%71 : tensor<64x28x64xf32>) {
    ^bb0(%in: i1, %in_80: f32, %in_81: f32, %out: f32):
      %204 = arith.select %in, %in_80, %in_81 : f32
      linalg.yield %204 : f32
    } -> tensor<64x28x64xf32>
    %collapsed_47 = tensor.collapse_shape %133 [[0, 1], [2]] : tensor<64x28x64xf32> into tensor<1792x64xf32>
    %134 = linalg.matmul ins(%collapsed_47, %arg11 : tensor<1792x64xf32>, tensor<64x32xf32>) outs(%2 : tensor<1792x32xf32>) -> tensor<1792x32xf32>
    %135 = tensor.empty() : tensor<64x1792xf32>
    %transposed_48 = linalg.transpose ins(%collapsed_47 : tensor<1792x64xf32>) outs(%135 : tensor<64x1792xf32>) permutation = [1, 0] 
    %136 = linalg.matmul ins(%transposed_48, %collapsed_34 : tensor<64x1792xf32>, tensor<1792x32xf32>) outs(%77 : tensor<64x32xf32>) -> tensor<64x32xf32>
    %137 = tensor.empty() : tensor<1x64xf32>
    %138 = linalg.fill ins(%cst : f32) outs(%137 : tensor<1x64xf32>) -> tensor<1x64xf32>
    %139 = linalg.generic {indexing_maps = [#map1, #map16], iterator_types = ["reduction", "parallel"]} ins(%collapsed_47 : tensor<1792x64xf32>) outs(%138 : tensor<1x64xf32>) {
    ^bb0(%in: f32, %out: f32):
      %204 = arith.addf %in, %out : f32
      linalg.yield %204 : f32
    } -> tensor<1x64xf32>
    %collapsed_49 = tensor.collapse_shape %139 [[0, 1]] : tensor<1x64xf32> into tensor<64xf32>
    %expanded_50 = tensor.expand_shape %134 [[0, 1], [2]] output_shape [64, 28, 32] : tensor<1792x32xf32> into tensor<64x28x32xf32>
    %140 = linalg.generic {indexing_maps = [#map2, #map4, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%52, %54 : tensor<64x28x32xf32>, tensor<64x28x1xf32>) outs(%5 : tensor<64x28x32xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %204 = arith.subf %in, %in_80 : f32
      linalg.yield %204 : f32
    } -> tensor<64x28x32xf32>
    %141 = linalg.generic {indexing_maps = [#map2, #map4, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%140, %61 : tensor<64x28x32xf32>, tensor<64x28x1xf32>) outs(%5 : tensor<64x28x32xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %204 = arith.mulf %in, %in_80 : f32
      linalg.yield %204 : f32
    } -> tensor<64x28x32xf32>
    %142 = linalg.generic {indexing_maps = [#map2, #map6, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_50, %arg9 : tensor<64x28x32xf32>, tensor<32xf32>) outs(%5 : tensor<64x28x32xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %204 = arith.mulf %in, %in_80 : f32
      linalg.yield %204 : f32
    } -> tensor<64x28x32xf32>
    %143 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%142 : tensor<64x28x32xf32>) outs(%5 : tensor<64x28x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      %204 = arith.mulf %in, %cst_3 : f32
      linalg.yield %204 : f32
    } -> tensor<64x28x32xf32>
    %144 = linalg.generic {indexing_maps = [#map2, #map4], iterator_types = ["parallel", "parallel", "reduction"]} ins(%142 : tensor<64x28x32xf32>) outs(%8 : tensor<64x28x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %204 = arith.addf %in, %out : f32
      linalg.yield %204 : f32
    } -> tensor<64x28x1xf32>
    %145 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%142, %141 : tensor<64x28x32xf32>, tensor<64x28x32xf32>) outs(%5 : tensor<64x28x32xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %204 = arith.mulf %in, %in_80 : f32
      linalg.yield %204 : f32
    } -> tensor<64x28x32xf32>
    %146 = linalg.generic {indexing_maps = [#map2, #map4], iterator_types = ["parallel", "parallel", "reduction"]} ins(%145 : tensor<64x28x32xf32>) outs(%8 : tensor<64x28x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %204 = arith.addf %in, %out : f32
      linalg.yield %204 : f32
    } -> tensor<64x28x1xf32>
    %147 = linalg.generic {indexing_maps = [#map2, #map4, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%141, %146 : tensor<64x28x32xf32>, tensor<64x28x1xf32>) outs(%5 : tensor<64x28x32xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %204 = arith.mulf %in, %in_80 : f32
      linalg.yield %204 : f32
    } -> tensor<64x28x32xf32>
    %148 = linalg.generic {indexing_maps = [#map2, #map4, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%143, %144 : tensor<64x28x32xf32>, tensor<64x28x1xf32>) outs(%5 : tensor<64x28x32xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %204 = arith.subf %in, %in_80 : f32
      linalg.yield %204 : f32
    } -> tensor<64x28x32xf32>
    %149 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%148, %147 : tensor<64x28x32xf32>, tensor<64x28x32xf32>) outs(%5 : tensor<64x28x32xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %204 = arith.subf %in, %in_80 : f32
      linalg.yield %204 : f32
    } -> tensor<64x28x32xf32>
    %150 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%61 : tensor<64x28x1xf32>) outs(%7 : tensor<64x28x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %204 = arith.divf %in, %cst_3 : f32
      linalg.yield %204 : f32
    } -> tensor<64x28x1xf32>
    %151 = linalg.generic {indexing_maps = [#map4, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%150, %149 : tensor<64x28x1xf32>, tensor<64x28x32xf32>) outs(%5 : tensor<64x28x32xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %204 = arith.mulf %in, %in_80 : f32
      linalg.yield %204 : f32
    } -> tensor<64x28x32xf32>
    %152 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_50, %141 : tensor<64x28x32xf32>, tensor<64x28x32xf32>) outs(%5 : tensor<64x28x32xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %204 = arith.mulf %in, %in_80 : f32
      linalg.yield %204 : f32
    } -> tensor<64x28x32xf32>
    %153 = tensor.empty() : tensor<32xf32>
    %154 = linalg.fill ins(%cst : f32) outs(%153 : tensor<32xf32>) -> tensor<32xf32>
    %155 = linalg.generic {indexing_maps = [#map2, #map6], iterator_types = ["reduction", "reduction", "parallel"]} ins(%152 : tensor<64x28x32xf32>) outs(%154 : tensor<32xf32>) {
    ^bb0(%in: f32, %out: f32):
      %204 = arith.addf %in, %out : f32
      linalg.yield %204 : f32
    } -> tensor<32xf32>
    %156 = linalg.generic {indexing_maps = [#map2, #map6], iterator_types = ["reduction", "reduction", "parallel"]} ins(%expanded_50 : tensor<64x28x32xf32>) outs(%154 : tensor<32xf32>) {
    ^bb0(%in: f32, %out: f32):
      %204 = arith.addf %in, %out : f32
      linalg.yield %204 : f32
    } -> tensor<32xf32>
    %157 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%123, %151 : tensor<64x28x32xf32>, tensor<64x28x32xf32>) outs(%5 : tensor<64x28x32xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %204 = arith.addf %in, %in_80 : f32
      linalg.yield %204 : f32
    } -> tensor<64x28x32xf32>
    %collapsed_51 = tensor.collapse_shape %157 [[0, 1], [2]] : tensor<64x28x32xf32> into tensor<1792x32xf32>
    %158 = linalg.matmul ins(%collapsed_51, %arg7 : tensor<1792x32xf32>, tensor<32x32xf32>) outs(%2 : tensor<1792x32xf32>) -> tensor<1792x32xf32>
    %transposed_52 = linalg.transpose ins(%collapsed_51 : tensor<1792x32xf32>) outs(%125 : tensor<32x1792xf32>) permutation = [1, 0] 
    %159 = linalg.fill ins(%cst : f32) outs(%49 : tensor<32x32xf32>) -> tensor<32x32xf32>
    %160 = linalg.matmul ins(%transposed_52, %collapsed_29 : tensor<32x1792xf32>, tensor<1792x32xf32>) outs(%159 : tensor<32x32xf32>) -> tensor<32x32xf32>
    %161 = linalg.generic {indexing_maps = [#map1, #map16], iterator_types = ["reduction", "parallel"]} ins(%collapsed_51 : tensor<1792x32xf32>) outs(%129 : tensor<1x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      %204 = arith.addf %in, %out : f32
      linalg.yield %204 : f32
    } -> tensor<1x32xf32>
    %collapsed_53 = tensor.collapse_shape %161 [[0, 1]] : tensor<1x32xf32> into tensor<32xf32>
    %expanded_54 = tensor.expand_shape %158 [[0, 1], [2, 3]] output_shape [64, 28, 2, 16] : tensor<1792x32xf32> into tensor<64x28x2x16xf32>
    %transposed_55 = linalg.transpose ins(%expanded_54 : tensor<64x28x2x16xf32>) outs(%27 : tensor<64x2x28x16xf32>) permutation = [0, 2, 1, 3] 
    %collapsed_56 = tensor.collapse_shape %transposed_55 [[0, 1], [2], [3]] : tensor<64x2x28x16xf32> into tensor<128x28x16xf32>
    %transposed_57 = linalg.transpose ins(%collapsed_24 : tensor<128x28x28xf32>) outs(%29 : tensor<128x28x28xf32>) permutation = [0, 2, 1] 
    %162 = linalg.batch_matmul ins(%transposed_57, %collapsed_56 : tensor<128x28x28xf32>, tensor<128x28x16xf32>) outs(%46 : tensor<128x28x16xf32>) -> tensor<128x28x16xf32>
    %163 = tensor.empty() : tensor<128x16x28xf32>
    %transposed_58 = linalg.transpose ins(%collapsed_25 : tensor<128x28x16xf32>) outs(%163 : tensor<128x16x28xf32>) permutation = [0, 2, 1] 
    %164 = linalg.batch_matmul ins(%collapsed_56, %transposed_58 : tensor<128x28x16xf32>, tensor<128x16x28xf32>) outs(%30 : tensor<128x28x28xf32>) -> tensor<128x28x28xf32>
    %expanded_59 = tensor.expand_shape %162 [[0, 1], [2], [3]] output_shape [64, 2, 28, 16] : tensor<128x28x16xf32> into tensor<64x2x28x16xf32>
    %expanded_60 = tensor.expand_shape %164 [[0, 1], [2], [3]] output_shape [64, 2, 28, 28] : tensor<128x28x28xf32> into tensor<64x2x28x28xf32>
    %transposed_61 = linalg.transpose ins(%expanded_59 : tensor<64x2x28x16xf32>) outs(%48 : tensor<64x28x2x16xf32>) permutation = [0, 2, 1, 3] 
    %collapsed_62 = tensor.collapse_shape %transposed_61 [[0], [1], [2, 3]] : tensor<64x28x2x16xf32> into tensor<64x28x32xf32>
    %165 = linalg.generic {indexing_maps = [#map7, #map7, #map7], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_60, %44 : tensor<64x2x28x28xf32>, tensor<64x2x28x28xf32>) outs(%32 : tensor<64x2x28x28xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %204 = arith.mulf %in, %in_80 : f32
      linalg.yield %204 : f32
    } -> tensor<64x2x28x28xf32>
    %166 = linalg.generic {indexing_maps = [#map7, #map9], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%165 : tensor<64x2x28x28xf32>) outs(%42 : tensor<64x2x28x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %204 = arith.addf %in, %out : f32
      linalg.yield %204 : f32
    } -> tensor<64x2x28x1xf32>
    %167 = linalg.generic {indexing_maps = [#map7, #map9, #map7], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%44, %166 : tensor<64x2x28x28xf32>, tensor<64x2x28x1xf32>) outs(%32 : tensor<64x2x28x28xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %204 = arith.mulf %in, %in_80 : f32
      linalg.yield %204 : f32
    } -> tensor<64x2x28x28xf32>
    %168 = linalg.generic {indexing_maps = [#map7, #map7, #map7], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%165, %167 : tensor<64x2x28x28xf32>, tensor<64x2x28x28xf32>) outs(%32 : tensor<64x2x28x28xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %204 = arith.subf %in, %in_80 : f32
      linalg.yield %204 : f32
    } -> tensor<64x2x28x28xf32>
    %169 = linalg.generic {indexing_maps = [#map7, #map7], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%168 : tensor<64x2x28x28xf32>) outs(%32 : tensor<64x2x28x28xf32>) {
    ^bb0(%in: f32, %out: f32):
      %204 = arith.divf %in, %cst_4 : f32
      linalg.yield %204 : f32
    } -> tensor<64x2x28x28xf32>
    %collapsed_63 = tensor.collapse_shape %169 [[0, 1], [2], [3]] : tensor<64x2x28x28xf32> into tensor<128x28x28xf32>
    %transposed_64 = linalg.transpose ins(%collapsed_18 : tensor<128x28x16xf32>) outs(%163 : tensor<128x16x28xf32>) permutation = [0, 2, 1] 
    %170 = linalg.fill ins(%cst : f32) outs(%163 : tensor<128x16x28xf32>) -> tensor<128x16x28xf32>
    %171 = linalg.batch_matmul ins(%transposed_64, %collapsed_63 : tensor<128x16x28xf32>, tensor<128x28x28xf32>) outs(%170 : tensor<128x16x28xf32>) -> tensor<128x16x28xf32>
    %transposed_65 = linalg.transpose ins(%collapsed_19 : tensor<128x16x28xf32>) outs(%45 : tensor<128x28x16xf32>) permutation = [0, 2, 1] 
    %172 = linalg.batch_matmul ins(%collapsed_63, %transposed_65 : tensor<128x28x28xf32>, tensor<128x28x16xf32>) outs(%46 : tensor<128x28x16xf32>) -> tensor<128x28x16xf32>
    %expanded_66 = tensor.expand_shape %171 [[0, 1], [2], [3]] output_shape [64, 2, 16, 28] : tensor<128x16x28xf32> into tensor<64x2x16x28xf32>
    %expanded_67 = tensor.expand_shape %172 [[0, 1], [2], [3]] output_shape [64, 2, 28, 16] : tensor<128x28x16xf32> into tensor<64x2x28x16xf32>
    %transposed_68 = linalg.transpose ins(%expanded_66 : tensor<64x2x16x28xf32>) outs(%48 : tensor<64x28x2x16xf32>) permutation = [0, 3, 1, 2] 
    %collapsed_69 = tensor.collapse_shape %transposed_68 [[0], [1], [2, 3]] : tensor<64x28x2x16xf32> into tensor<64x28x32xf32>
    %transposed_70 = linalg.transpose ins(%expanded_67 : tensor<64x2x28x16xf32>) outs(%48 : tensor<64x28x2x16xf32>) permutation = [0, 2, 1, 3] 
    %collapsed_71 = tensor.collapse_shape %transposed_70 [[0], [1], [2, 3]] : tensor<64x28x2x16xf32> into tensor<64x28x32xf32>
    %concat = tensor.concat dim(2) %collapsed_71, %collapsed_69, %collapsed_62 : (tensor<64x28x32xf32>, tensor<64x28x32xf32>, tensor<64x28x32xf32>) -> tensor<64x28x96xf32>
    %collapsed_72 = tensor.collapse_shape %concat [[0, 1], [2]] : tensor<64x28x96xf32> into tensor<1792x96xf32>
    %173 = linalg.matmul ins(%collapsed_72, %arg5 : tensor<1792x96xf32>, tensor<96x32xf32>) outs(%2 : tensor<1792x32xf32>) -> tensor<1792x32xf32>
    %174 = tensor.empty() : tensor<96x1792xf32>
    %transposed_73 = linalg.transpose ins(%collapsed_72 : tensor<1792x96xf32>) outs(%174 : tensor<96x1792xf32>) permutation = [1, 0] 
    %175 = tensor.empty() : tensor<96x32xf32>
    %176 = linalg.fill ins(%cst : f32) outs(%175 : tensor<96x32xf32>) -> tensor<96x32xf32>
    %177 = linalg.matmul ins(%transposed_73, %collapsed_10 : tensor<96x1792xf32>, tensor<1792x32xf32>) outs(%176 : tensor<96x32xf32>) -> tensor<96x32xf32>
    %178 = tensor.empty() : tensor<1x96xf32>
    %179 = linalg.fill ins(%cst : f32) outs(%178 : tensor<1x96xf32>) -> tensor<1x96xf32>
    %180 = linalg.generic {indexing_maps = [#map1, #map16], iterator_types = ["reduction", "parallel"]} ins(%collapsed_72 : tensor<1792x96xf32>) outs(%179 : tensor<1x96xf32>) {
    ^bb0(%in: f32, %out: f32):
      %204 = arith.addf %in, %out : f32
      linalg.yield %204 : f32
    } -> tensor<1x96xf32>
    %collapsed_74 = tensor.collapse_shape %180 [[0, 1]] : tensor<1x96xf32> into tensor<96xf32>
    %expanded_75 = tensor.expand_shape %173 [[0, 1], [2]] output_shape [64, 28, 32] : tensor<1792x32xf32> into tensor<64x28x32xf32>
    %181 = linalg.generic {indexing_maps = [#map2, #map4, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%6, %10 : tensor<64x28x32xf32>, tensor<64x28x1xf32>) outs(%5 : tensor<64x28x32xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %204 = arith.subf %in, %in_80 : f32
      linalg.yield %204 : f32
    } -> tensor<64x28x32xf32>
    %182 = linalg.generic {indexing_maps = [#map2, #map4, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%181, %17 : tensor<64x28x32xf32>, tensor<64x28x1xf32>) outs(%5 : tensor<64x28x32xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %204 = arith.mulf %in, %in_80 : f32
      linalg.yield %204 : f32
    } -> tensor<64x28x32xf32>
    %183 = linalg.generic {indexing_maps = [#map2, #map6, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_75, %arg3 : tensor<64x28x32xf32>, tensor<32xf32>) outs(%5 : tensor<64x28x32xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %204 = arith.mulf %in, %in_80 : f32
      linalg.yield %204 : f32
    } -> tensor<64x28x32xf32>
    %184 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%183 : tensor<64x28x32xf32>) outs(%5 : tensor<64x28x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      %204 = arith.mulf %in, %cst_3 : f32
      linalg.yield %204 : f32
    } -> tensor<64x28x32xf32>
    %185 = linalg.generic {indexing_maps = [#map2, #map4], iterator_types = ["parallel", "parallel", "reduction"]} ins(%183 : tensor<64x28x32xf32>) outs(%8 : tensor<64x28x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %204 = arith.addf %in, %out : f32
      linalg.yield %204 : f32
    } -> tensor<64x28x1xf32>
    %186 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%183, %182 : tensor<64x28x32xf32>, tensor<64x28x32xf32>) outs(%5 : tensor<64x28x32xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %204 = arith.mulf %in, %in_80 : f32
      linalg.yield %204 : f32
    } -> tensor<64x28x32xf32>
    %187 = linalg.generic {indexing_maps = [#map2, #map4], iterator_types = ["parallel", "parallel", "reduction"]} ins(%186 : tensor<64x28x32xf32>) outs(%8 : tensor<64x28x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %204 = arith.addf %in, %out : f32
      linalg.yield %204 : f32
    } -> tensor<64x28x1xf32>
    %188 = linalg.generic {indexing_maps = [#map2, #map4, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%182, %187 : tensor<64x28x32xf32>, tensor<64x28x1xf32>) outs(%5 : tensor<64x28x32xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %204 = arith.mulf %in, %in_80 : f32
      linalg.yield %204 : f32
    } -> tensor<64x28x32xf32>
    %189 = linalg.generic {indexing_maps = [#map2, #map4, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%184, %185 : tensor<64x28x32xf32>, tensor<64x28x1xf32>) outs(%5 : tensor<64x28x32xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %204 = arith.subf %in, %in_80 : f32
      linalg.yield %204 : f32
    } -> tensor<64x28x32xf32>
    %190 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%189, %188 : tensor<64x28x32xf32>, tensor<64x28x32xf32>) outs(%5 : tensor<64x28x32xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %204 = arith.subf %in, %in_80 : f32
      linalg.yield %204 : f32
    } -> tensor<64x28x32xf32>
    %191 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%17 : tensor<64x28x1xf32>) outs(%7 : tensor<64x28x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %204 = arith.divf %in, %cst_3 : f32
      linalg.yield %204 : f32
    } -> tensor<64x28x1xf32>
    %192 = linalg.generic {indexing_maps = [#map4, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%191, %190 : tensor<64x28x1xf32>, tensor<64x28x32xf32>) outs(%5 : tensor<64x28x32xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %204 = arith.mulf %in, %in_80 : f32
      linalg.yield %204 : f32
    } -> tensor<64x28x32xf32>
    %193 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_75, %182 : tensor<64x28x32xf32>, tensor<64x28x32xf32>) outs(%5 : tensor<64x28x32xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %204 = arith.mulf %in, %in_80 : f32
      linalg.yield %204 : f32
    } -> tensor<64x28x32xf32>
    %194 = linalg.generic {indexing_maps = [#map2, #map6], iterator_types = ["reduction", "reduction", "parallel"]} ins(%193 : tensor<64x28x32xf32>) outs(%154 : tensor<32xf32>) {
    ^bb0(%in: f32, %out: f32):
      %204 = arith.addf %in, %out : f32
      linalg.yield %204 : f32
    } -> tensor<32xf32>
    %195 = linalg.generic {indexing_maps = [#map2, #map6], iterator_types = ["reduction", "reduction", "parallel"]} ins(%expanded_75 : tensor<64x28x32xf32>) outs(%154 : tensor<32xf32>) {
    ^bb0(%in: f32, %out: f32):
      %204 = arith.addf %in, %out : f32
      linalg.yield %204 : f32
    } -> tensor<32xf32>
    %196 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%157, %192 : tensor<64x28x32xf32>, tensor<64x28x32xf32>) outs(%5 : tensor<64x28x32xf32>) {
    ^bb0(%in: f32, %in_80: f32, %out: f32):
      %204 = arith.addf %in, %in_80 : f32
      linalg.yield %204 : f32
    } -> tensor<64x28x32xf32>
    %197 = tensor.empty() : tensor<1x28x32xf32>
    %198 = linalg.fill ins(%cst : f32) outs(%197 : tensor<1x28x32xf32>) -> tensor<1x28x32xf32>
    %199 = linalg.generic {indexing_maps = [#map2, #map18], iterator_types = ["reduction", "parallel", "parallel"]} ins(%196 : tensor<64x28x32xf32>) outs(%198 : tensor<1x28x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      %204 = arith.addf %in, %out : f32
      linalg.yield %204 : f32
    } -> tensor<1x28x32xf32>
    %collapsed_76 = tensor.collapse_shape %199 [[0, 1], [2]] : tensor<1x28x32xf32> into tensor<28x32xf32>
    %collapsed_77 = tensor.collapse_shape %196 [[0, 1], [2]] : tensor<64x28x32xf32> into tensor<1792x32xf32>
    %transposed_78 = linalg.transpose ins(%collapsed_77 : tensor<1792x32xf32>) outs(%125 : tensor<32x1792xf32>) permutation = [1, 0] 
    %200 = tensor.empty() : tensor<32x28xf32>
    %201 = linalg.fill ins(%cst : f32) outs(%200 : tensor<32x28xf32>) -> tensor<32x28xf32>
    %202 = linalg.matmul ins(%transposed_78, %collapsed : tensor<32x1792xf32>, tensor<1792x28xf32>) outs(%201 : tensor<32x28xf32>) -> tensor<32x28xf32>
    %203 = linalg.generic {indexing_maps = [#map1, #map16], iterator_types = ["reduction", "parallel"]} ins(%collapsed_77 : tensor<1792x32xf32>) outs(%129 : tensor<1x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      %204 = arith.addf %in, %out : f32
      linalg.yield %204 : f32
    } -> tensor<1x32xf32>
    %collapsed_79 = tensor.collapse_shape %203 [[0, 1]] : tensor<1x32xf32> into tensor<32xf32>
    return %104, %collapsed_76, %202, %collapsed_79, %194, %195, %177, %collapsed_74, %160, %collapsed_53, %155, %156, %136, %collapsed_49, %127, %collapsed_45, %118, %collapsed_42, %84 : tensor<f32>, tensor<28x32xf32>, tensor<32x28xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<96x32xf32>, tensor<96xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<64x32xf32>, tensor<64xf32>, tensor<32x64xf32>, tensor<32xf32>, tensor<10x32xf32>, tensor<10xf32>, tensor<64x10xf32>
  }
}
