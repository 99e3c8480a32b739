// cnn: exported by scripts/export-torch.py (batch 256, seed 0) from examples/torch/models.py.
// Parameters in order: #0 conv1.weight (8, 1, 3, 3), #1 conv1.bias (8,), #2 conv2.weight (16, 8, 3, 3), #3 conv2.bias (16,), #4 fc.weight (10, 784), #5 fc.bias (10,)
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map1 = affine_map<(d0, d1) -> (d1)>
#map2 = affine_map<(d0, d1) -> (d0, d1)>
#map3 = affine_map<(d0, d1) -> (d0)>
#map4 = affine_map<(d0, d1) -> (d0, 0)>
#map5 = affine_map<(d0) -> (d0)>
#map6 = affine_map<(d0) -> ()>
#map7 = affine_map<() -> ()>
#map8 = affine_map<(d0, d1) -> (0, d1)>
#map9 = affine_map<(d0, d1, d2, d3) -> ()>
#map10 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
#map11 = affine_map<(d0, d1, d2, d3, d4) -> (d1, d2, d3, d4)>
#map12 = affine_map<(d0, d1, d2, d3) -> (d1)>
module {
  func.func @cnn_grad(%arg0: tensor<8x1x3x3xf32> {mp.param}, %arg1: tensor<8xf32> {mp.param}, %arg2: tensor<16x8x3x3xf32> {mp.param}, %arg3: tensor<16xf32> {mp.param}, %arg4: tensor<10x784xf32> {mp.param}, %arg5: tensor<10xf32> {mp.param}, %arg6: tensor<256x1x28x28xf32> {mp.input}, %arg7: tensor<256x10xf32> {mp.input}, %arg8: tensor<f32> {mp.grad_seed}) -> (tensor<f32> {mp.loss}, tensor<8x1x3x3xf32> {mp.grad_of = 0 : i64}, tensor<8xf32> {mp.grad_of = 1 : i64}, tensor<16x8x3x3xf32> {mp.grad_of = 2 : i64}, tensor<16xf32> {mp.grad_of = 3 : i64}, tensor<10x784xf32> {mp.grad_of = 4 : i64}, tensor<10xf32> {mp.grad_of = 5 : i64}, tensor<256x10xf32> {mp.output}) {
    %c0_i64 = arith.constant 0 : i64
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %cst_1 = arith.constant dense<0.000000e+00> : tensor<f32>
    %cst_2 = arith.constant 2.560000e+02 : f32
    %c2 = arith.constant 2 : index
    %padded = tensor.pad %arg6 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg9: index, %arg10: index, %arg11: index, %arg12: index):
      tensor.yield %cst : f32
    } : tensor<256x1x28x28xf32> to tensor<256x1x30x30xf32>
    %0 = tensor.empty() : tensor<256x8x14x14xf32>
    %broadcasted = linalg.broadcast ins(%arg1 : tensor<8xf32>) outs(%0 : tensor<256x8x14x14xf32>) dimensions = [0, 2, 3] 
    %1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%padded, %arg0 : tensor<256x1x30x30xf32>, tensor<8x1x3x3xf32>) outs(%broadcasted : tensor<256x8x14x14xf32>) -> tensor<256x8x14x14xf32>
    %2 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%1 : tensor<256x8x14x14xf32>) outs(%0 : tensor<256x8x14x14xf32>) {
    ^bb0(%in: f32, %out: f32):
      %85 = arith.cmpf ugt, %in, %cst : f32
      %86 = arith.select %85, %in, %cst : f32
      linalg.yield %86 : f32
    } -> tensor<256x8x14x14xf32>
    %padded_3 = tensor.pad %2 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg9: index, %arg10: index, %arg11: index, %arg12: index):
      tensor.yield %cst : f32
    } : tensor<256x8x14x14xf32> to tensor<256x8x16x16xf32>
    %3 = tensor.empty() : tensor<256x16x7x7xf32>
    %broadcasted_4 = linalg.broadcast ins(%arg3 : tensor<16xf32>) outs(%3 : tensor<256x16x7x7xf32>) dimensions = [0, 2, 3] 
    %4 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%padded_3, %arg2 : tensor<256x8x16x16xf32>, tensor<16x8x3x3xf32>) outs(%broadcasted_4 : tensor<256x16x7x7xf32>) -> tensor<256x16x7x7xf32>
    %5 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%4 : tensor<256x16x7x7xf32>) outs(%3 : tensor<256x16x7x7xf32>) {
    ^bb0(%in: f32, %out: f32):
      %85 = arith.cmpf ugt, %in, %cst : f32
      %86 = arith.select %85, %in, %cst : f32
      linalg.yield %86 : f32
    } -> tensor<256x16x7x7xf32>
    %collapsed = tensor.collapse_shape %5 [[0], [1, 2, 3]] : tensor<256x16x7x7xf32> into tensor<256x784xf32>
    %6 = tensor.empty() : tensor<784x10xf32>
    %transposed = linalg.transpose ins(%arg4 : tensor<10x784xf32>) outs(%6 : tensor<784x10xf32>) permutation = [1, 0] 
    %7 = tensor.empty() : tensor<256x10xf32>
    %8 = linalg.fill ins(%cst : f32) outs(%7 : tensor<256x10xf32>) -> tensor<256x10xf32>
    %9 = linalg.matmul ins(%collapsed, %transposed : tensor<256x784xf32>, tensor<784x10xf32>) outs(%8 : tensor<256x10xf32>) -> tensor<256x10xf32>
    %10 = linalg.generic {indexing_maps = [#map1, #map2, #map2], iterator_types = ["parallel", "parallel"]} ins(%arg5, %9 : tensor<10xf32>, tensor<256x10xf32>) outs(%7 : tensor<256x10xf32>) {
    ^bb0(%in: f32, %in_27: f32, %out: f32):
      %85 = arith.addf %in, %in_27 : f32
      linalg.yield %85 : f32
    } -> tensor<256x10xf32>
    %11 = tensor.empty() : tensor<256xi64>
    %12 = linalg.fill ins(%c0_i64 : i64) outs(%11 : tensor<256xi64>) -> tensor<256xi64>
    %13 = tensor.empty() : tensor<256xf32>
    %14 = linalg.fill ins(%cst_0 : f32) outs(%13 : tensor<256xf32>) -> tensor<256xf32>
    %15:2 = linalg.generic {indexing_maps = [#map2, #map3, #map3], iterator_types = ["parallel", "reduction"]} ins(%10 : tensor<256x10xf32>) outs(%14, %12 : tensor<256xf32>, tensor<256xi64>) {
    ^bb0(%in: f32, %out: f32, %out_27: i64):
      %85 = linalg.index 1 : index
      %86 = arith.index_cast %85 : index to i64
      %87 = arith.maximumf %in, %out : f32
      %88 = arith.cmpf ogt, %in, %out : f32
      %89 = arith.select %88, %86, %out_27 : i64
      linalg.yield %87, %89 : f32, i64
    } -> (tensor<256xf32>, tensor<256xi64>)
    %expanded = tensor.expand_shape %15#0 [[0, 1]] output_shape [256, 1] : tensor<256xf32> into tensor<256x1xf32>
    %16 = linalg.generic {indexing_maps = [#map2, #map4, #map2], iterator_types = ["parallel", "parallel"]} ins(%10, %expanded : tensor<256x10xf32>, tensor<256x1xf32>) outs(%7 : tensor<256x10xf32>) {
    ^bb0(%in: f32, %in_27: f32, %out: f32):
      %85 = arith.subf %in, %in_27 : f32
      linalg.yield %85 : f32
    } -> tensor<256x10xf32>
    %17 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel"]} ins(%16 : tensor<256x10xf32>) outs(%7 : tensor<256x10xf32>) {
    ^bb0(%in: f32, %out: f32):
      %85 = math.exp %in : f32
      linalg.yield %85 : f32
    } -> tensor<256x10xf32>
    %18 = tensor.empty() : tensor<256x1xf32>
    %19 = linalg.fill ins(%cst : f32) outs(%18 : tensor<256x1xf32>) -> tensor<256x1xf32>
    %20 = linalg.generic {indexing_maps = [#map2, #map4], iterator_types = ["parallel", "reduction"]} ins(%17 : tensor<256x10xf32>) outs(%19 : tensor<256x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %85 = arith.addf %in, %out : f32
      linalg.yield %85 : f32
    } -> tensor<256x1xf32>
    %21 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel"]} ins(%20 : tensor<256x1xf32>) outs(%18 : tensor<256x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %85 = math.log %in : f32
      linalg.yield %85 : f32
    } -> tensor<256x1xf32>
    %22 = linalg.generic {indexing_maps = [#map2, #map4, #map2], iterator_types = ["parallel", "parallel"]} ins(%16, %21 : tensor<256x10xf32>, tensor<256x1xf32>) outs(%7 : tensor<256x10xf32>) {
    ^bb0(%in: f32, %in_27: f32, %out: f32):
      %85 = arith.subf %in, %in_27 : f32
      linalg.yield %85 : f32
    } -> tensor<256x10xf32>
    %23 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel"]} ins(%arg7, %22 : tensor<256x10xf32>, tensor<256x10xf32>) outs(%7 : tensor<256x10xf32>) {
    ^bb0(%in: f32, %in_27: f32, %out: f32):
      %85 = arith.mulf %in, %in_27 : f32
      linalg.yield %85 : f32
    } -> tensor<256x10xf32>
    %24 = linalg.fill ins(%cst : f32) outs(%13 : tensor<256xf32>) -> tensor<256xf32>
    %25 = linalg.generic {indexing_maps = [#map2, #map3], iterator_types = ["parallel", "reduction"]} ins(%23 : tensor<256x10xf32>) outs(%24 : tensor<256xf32>) {
    ^bb0(%in: f32, %out: f32):
      %85 = arith.addf %in, %out : f32
      linalg.yield %85 : f32
    } -> tensor<256xf32>
    %26 = tensor.empty() : tensor<f32>
    %27 = linalg.fill ins(%cst : f32) outs(%26 : tensor<f32>) -> tensor<f32>
    %28 = linalg.generic {indexing_maps = [#map5, #map6], iterator_types = ["reduction"]} ins(%25 : tensor<256xf32>) outs(%27 : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %85 = arith.addf %in, %out : f32
      linalg.yield %85 : f32
    } -> tensor<f32>
    %29 = linalg.generic {indexing_maps = [#map7, #map7], iterator_types = []} ins(%28 : tensor<f32>) outs(%26 : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %85 = arith.divf %in, %cst_2 : f32
      linalg.yield %85 : f32
    } -> tensor<f32>
    %30 = linalg.generic {indexing_maps = [#map7, #map7], iterator_types = []} ins(%29 : tensor<f32>) outs(%26 : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %85 = arith.negf %in : f32
      linalg.yield %85 : f32
    } -> tensor<f32>
    %31 = linalg.generic {indexing_maps = [#map7, #map7], iterator_types = []} ins(%arg8 : tensor<f32>) outs(%26 : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %85 = arith.negf %in : f32
      linalg.yield %85 : f32
    } -> tensor<f32>
    %32 = linalg.generic {indexing_maps = [#map6, #map5], iterator_types = ["parallel"]} ins(%31 : tensor<f32>) outs(%13 : tensor<256xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<256xf32>
    %33 = linalg.generic {indexing_maps = [#map5, #map5], iterator_types = ["parallel"]} ins(%32 : tensor<256xf32>) outs(%13 : tensor<256xf32>) {
    ^bb0(%in: f32, %out: f32):
      %85 = arith.divf %in, %cst_2 : f32
      linalg.yield %85 : f32
    } -> tensor<256xf32>
    %34 = linalg.generic {indexing_maps = [#map3, #map2], iterator_types = ["parallel", "parallel"]} ins(%33 : tensor<256xf32>) outs(%7 : tensor<256x10xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<256x10xf32>
    %35 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel"]} ins(%34, %arg7 : tensor<256x10xf32>, tensor<256x10xf32>) outs(%7 : tensor<256x10xf32>) {
    ^bb0(%in: f32, %in_27: f32, %out: f32):
      %85 = arith.mulf %in, %in_27 : f32
      linalg.yield %85 : f32
    } -> tensor<256x10xf32>
    %36 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel"]} ins(%22 : tensor<256x10xf32>) outs(%7 : tensor<256x10xf32>) {
    ^bb0(%in: f32, %out: f32):
      %85 = math.exp %in : f32
      linalg.yield %85 : f32
    } -> tensor<256x10xf32>
    %37 = linalg.generic {indexing_maps = [#map2, #map4], iterator_types = ["parallel", "reduction"]} ins(%35 : tensor<256x10xf32>) outs(%19 : tensor<256x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %85 = arith.addf %in, %out : f32
      linalg.yield %85 : f32
    } -> tensor<256x1xf32>
    %38 = linalg.generic {indexing_maps = [#map2, #map4, #map2], iterator_types = ["parallel", "parallel"]} ins(%36, %37 : tensor<256x10xf32>, tensor<256x1xf32>) outs(%7 : tensor<256x10xf32>) {
    ^bb0(%in: f32, %in_27: f32, %out: f32):
      %85 = arith.mulf %in, %in_27 : f32
      linalg.yield %85 : f32
    } -> tensor<256x10xf32>
    %39 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel"]} ins(%35, %38 : tensor<256x10xf32>, tensor<256x10xf32>) outs(%7 : tensor<256x10xf32>) {
    ^bb0(%in: f32, %in_27: f32, %out: f32):
      %85 = arith.subf %in, %in_27 : f32
      linalg.yield %85 : f32
    } -> tensor<256x10xf32>
    %40 = tensor.empty() : tensor<256x784xf32>
    %41 = linalg.fill ins(%cst : f32) outs(%40 : tensor<256x784xf32>) -> tensor<256x784xf32>
    %42 = linalg.matmul ins(%39, %arg4 : tensor<256x10xf32>, tensor<10x784xf32>) outs(%41 : tensor<256x784xf32>) -> tensor<256x784xf32>
    %43 = tensor.empty() : tensor<10x256xf32>
    %transposed_5 = linalg.transpose ins(%39 : tensor<256x10xf32>) outs(%43 : tensor<10x256xf32>) permutation = [1, 0] 
    %44 = tensor.empty() : tensor<10x784xf32>
    %45 = linalg.fill ins(%cst : f32) outs(%44 : tensor<10x784xf32>) -> tensor<10x784xf32>
    %46 = linalg.matmul ins(%transposed_5, %collapsed : tensor<10x256xf32>, tensor<256x784xf32>) outs(%45 : tensor<10x784xf32>) -> tensor<10x784xf32>
    %47 = tensor.empty() : tensor<1x10xf32>
    %48 = linalg.fill ins(%cst : f32) outs(%47 : tensor<1x10xf32>) -> tensor<1x10xf32>
    %49 = linalg.generic {indexing_maps = [#map2, #map8], iterator_types = ["reduction", "parallel"]} ins(%39 : tensor<256x10xf32>) outs(%48 : tensor<1x10xf32>) {
    ^bb0(%in: f32, %out: f32):
      %85 = arith.addf %in, %out : f32
      linalg.yield %85 : f32
    } -> tensor<1x10xf32>
    %collapsed_6 = tensor.collapse_shape %49 [[0, 1]] : tensor<1x10xf32> into tensor<10xf32>
    %expanded_7 = tensor.expand_shape %42 [[0], [1, 2, 3]] output_shape [256, 16, 7, 7] : tensor<256x784xf32> into tensor<256x16x7x7xf32>
    %50 = tensor.empty() : tensor<256x16x7x7xi1>
    %51 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%5 : tensor<256x16x7x7xf32>) outs(%50 : tensor<256x16x7x7xi1>) {
    ^bb0(%in: f32, %out: i1):
      %85 = arith.cmpf ole, %in, %cst : f32
      linalg.yield %85 : i1
    } -> tensor<256x16x7x7xi1>
    %52 = linalg.generic {indexing_maps = [#map, #map9, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%51, %cst_1, %expanded_7 : tensor<256x16x7x7xi1>, tensor<f32>, tensor<256x16x7x7xf32>) outs(%3 : tensor<256x16x7x7xf32>) {
    ^bb0(%in: i1, %in_27: f32, %in_28: f32, %out: f32):
      %85 = arith.select %in, %in_27, %in_28 : f32
      linalg.yield %85 : f32
    } -> tensor<256x16x7x7xf32>
    %53 = tensor.empty() : tensor<8x16x3x3xf32>
    %54 = linalg.fill ins(%cst : f32) outs(%53 : tensor<8x16x3x3xf32>) -> tensor<8x16x3x3xf32>
    %55 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%54 : tensor<8x16x3x3xf32>) {
    ^bb0(%out: f32):
      %85 = linalg.index 0 : index
      %86 = linalg.index 1 : index
      %87 = linalg.index 2 : index
      %88 = linalg.index 3 : index
      %89 = arith.subi %c2, %87 : index
      %90 = arith.subi %c2, %88 : index
      %extracted = tensor.extract %arg2[%86, %85, %89, %90] : tensor<16x8x3x3xf32>
      linalg.yield %extracted : f32
    } -> tensor<8x16x3x3xf32>
    %56 = tensor.empty() : tensor<256x16x16x16xf32>
    %57 = linalg.fill ins(%cst : f32) outs(%56 : tensor<256x16x16x16xf32>) -> tensor<256x16x16x16xf32>
    %inserted_slice = tensor.insert_slice %52 into %57[0, 0, 1, 1] [256, 16, 7, 7] [1, 1, 2, 2] : tensor<256x16x7x7xf32> into tensor<256x16x16x16xf32>
    %58 = linalg.fill ins(%cst : f32) outs(%0 : tensor<256x8x14x14xf32>) -> tensor<256x8x14x14xf32>
    %59 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%inserted_slice, %55 : tensor<256x16x16x16xf32>, tensor<8x16x3x3xf32>) outs(%58 : tensor<256x8x14x14xf32>) -> tensor<256x8x14x14xf32>
    %60 = tensor.empty() : tensor<8x256x14x14xf32>
    %transposed_8 = linalg.transpose ins(%2 : tensor<256x8x14x14xf32>) outs(%60 : tensor<8x256x14x14xf32>) permutation = [1, 0, 2, 3] 
    %padded_9 = tensor.pad %transposed_8 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg9: index, %arg10: index, %arg11: index, %arg12: index):
      tensor.yield %cst : f32
    } : tensor<8x256x14x14xf32> to tensor<8x256x16x16xf32>
    %61 = tensor.empty() : tensor<8x4096x4x4xf32>
    %expanded_10 = tensor.expand_shape %padded_9 [[0], [1, 2], [3], [4]] output_shape [8, 256, 1, 16, 16] : tensor<8x256x16x16xf32> into tensor<8x256x1x16x16xf32>
    %expanded_11 = tensor.expand_shape %52 [[0], [1], [2, 3], [4]] output_shape [256, 16, 1, 7, 7] : tensor<256x16x7x7xf32> into tensor<256x16x1x7x7xf32>
    %expanded_12 = tensor.expand_shape %61 [[0], [1, 2], [3], [4]] output_shape [8, 256, 16, 4, 4] : tensor<8x4096x4x4xf32> into tensor<8x256x16x4x4xf32>
    %62 = linalg.fill ins(%cst : f32) outs(%expanded_12 : tensor<8x256x16x4x4xf32>) -> tensor<8x256x16x4x4xf32>
    %63 = linalg.conv_2d_ngchw_gfchw {dilations = dense<2> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%expanded_10, %expanded_11 : tensor<8x256x1x16x16xf32>, tensor<256x16x1x7x7xf32>) outs(%62 : tensor<8x256x16x4x4xf32>) -> tensor<8x256x16x4x4xf32>
    %collapsed_13 = tensor.collapse_shape %63 [[0], [1, 2], [3], [4]] : tensor<8x256x16x4x4xf32> into tensor<8x4096x4x4xf32>
    %extracted_slice = tensor.extract_slice %collapsed_13[0, 0, 0, 0] [8, 4096, 3, 4] [1, 1, 1, 1] : tensor<8x4096x4x4xf32> to tensor<8x4096x3x4xf32>
    %extracted_slice_14 = tensor.extract_slice %extracted_slice[0, 0, 0, 0] [8, 4096, 3, 3] [1, 1, 1, 1] : tensor<8x4096x3x4xf32> to tensor<8x4096x3x3xf32>
    %expanded_15 = tensor.expand_shape %extracted_slice_14 [[0], [1, 2], [3], [4]] output_shape [8, 256, 16, 3, 3] : tensor<8x4096x3x3xf32> into tensor<8x256x16x3x3xf32>
    %64 = tensor.empty() : tensor<256x16x8x3x3xf32>
    %transposed_16 = linalg.transpose ins(%expanded_15 : tensor<8x256x16x3x3xf32>) outs(%64 : tensor<256x16x8x3x3xf32>) permutation = [1, 2, 0, 3, 4] 
    %65 = tensor.empty() : tensor<16x8x3x3xf32>
    %66 = linalg.fill ins(%cst : f32) outs(%65 : tensor<16x8x3x3xf32>) -> tensor<16x8x3x3xf32>
    %67 = linalg.generic {indexing_maps = [#map10, #map11], iterator_types = ["reduction", "parallel", "parallel", "parallel", "parallel"]} ins(%transposed_16 : tensor<256x16x8x3x3xf32>) outs(%66 : tensor<16x8x3x3xf32>) {
    ^bb0(%in: f32, %out: f32):
      %85 = arith.addf %in, %out : f32
      linalg.yield %85 : f32
    } -> tensor<16x8x3x3xf32>
    %68 = tensor.empty() : tensor<16xf32>
    %69 = linalg.fill ins(%cst : f32) outs(%68 : tensor<16xf32>) -> tensor<16xf32>
    %70 = linalg.generic {indexing_maps = [#map, #map12], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%52 : tensor<256x16x7x7xf32>) outs(%69 : tensor<16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %85 = arith.addf %in, %out : f32
      linalg.yield %85 : f32
    } -> tensor<16xf32>
    %71 = tensor.empty() : tensor<256x8x14x14xi1>
    %72 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%2 : tensor<256x8x14x14xf32>) outs(%71 : tensor<256x8x14x14xi1>) {
    ^bb0(%in: f32, %out: i1):
      %85 = arith.cmpf ole, %in, %cst : f32
      linalg.yield %85 : i1
    } -> tensor<256x8x14x14xi1>
    %73 = linalg.generic {indexing_maps = [#map, #map9, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%72, %cst_1, %59 : tensor<256x8x14x14xi1>, tensor<f32>, tensor<256x8x14x14xf32>) outs(%0 : tensor<256x8x14x14xf32>) {
    ^bb0(%in: i1, %in_27: f32, %in_28: f32, %out: f32):
      %85 = arith.select %in, %in_27, %in_28 : f32
      linalg.yield %85 : f32
    } -> tensor<256x8x14x14xf32>
    %74 = tensor.empty() : tensor<1x256x28x28xf32>
    %transposed_17 = linalg.transpose ins(%arg6 : tensor<256x1x28x28xf32>) outs(%74 : tensor<1x256x28x28xf32>) permutation = [1, 0, 2, 3] 
    %padded_18 = tensor.pad %transposed_17 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg9: index, %arg10: index, %arg11: index, %arg12: index):
      tensor.yield %cst : f32
    } : tensor<1x256x28x28xf32> to tensor<1x256x30x30xf32>
    %75 = tensor.empty() : tensor<1x2048x4x4xf32>
    %expanded_19 = tensor.expand_shape %padded_18 [[0], [1, 2], [3], [4]] output_shape [1, 256, 1, 30, 30] : tensor<1x256x30x30xf32> into tensor<1x256x1x30x30xf32>
    %expanded_20 = tensor.expand_shape %73 [[0], [1], [2, 3], [4]] output_shape [256, 8, 1, 14, 14] : tensor<256x8x14x14xf32> into tensor<256x8x1x14x14xf32>
    %expanded_21 = tensor.expand_shape %75 [[0], [1, 2], [3], [4]] output_shape [1, 256, 8, 4, 4] : tensor<1x2048x4x4xf32> into tensor<1x256x8x4x4xf32>
    %76 = linalg.fill ins(%cst : f32) outs(%expanded_21 : tensor<1x256x8x4x4xf32>) -> tensor<1x256x8x4x4xf32>
    %77 = linalg.conv_2d_ngchw_gfchw {dilations = dense<2> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%expanded_19, %expanded_20 : tensor<1x256x1x30x30xf32>, tensor<256x8x1x14x14xf32>) outs(%76 : tensor<1x256x8x4x4xf32>) -> tensor<1x256x8x4x4xf32>
    %collapsed_22 = tensor.collapse_shape %77 [[0], [1, 2], [3], [4]] : tensor<1x256x8x4x4xf32> into tensor<1x2048x4x4xf32>
    %extracted_slice_23 = tensor.extract_slice %collapsed_22[0, 0, 0, 0] [1, 2048, 3, 4] [1, 1, 1, 1] : tensor<1x2048x4x4xf32> to tensor<1x2048x3x4xf32>
    %extracted_slice_24 = tensor.extract_slice %extracted_slice_23[0, 0, 0, 0] [1, 2048, 3, 3] [1, 1, 1, 1] : tensor<1x2048x3x4xf32> to tensor<1x2048x3x3xf32>
    %expanded_25 = tensor.expand_shape %extracted_slice_24 [[0], [1, 2], [3], [4]] output_shape [1, 256, 8, 3, 3] : tensor<1x2048x3x3xf32> into tensor<1x256x8x3x3xf32>
    %78 = tensor.empty() : tensor<256x8x1x3x3xf32>
    %transposed_26 = linalg.transpose ins(%expanded_25 : tensor<1x256x8x3x3xf32>) outs(%78 : tensor<256x8x1x3x3xf32>) permutation = [1, 2, 0, 3, 4] 
    %79 = tensor.empty() : tensor<8x1x3x3xf32>
    %80 = linalg.fill ins(%cst : f32) outs(%79 : tensor<8x1x3x3xf32>) -> tensor<8x1x3x3xf32>
    %81 = linalg.generic {indexing_maps = [#map10, #map11], iterator_types = ["reduction", "parallel", "parallel", "parallel", "parallel"]} ins(%transposed_26 : tensor<256x8x1x3x3xf32>) outs(%80 : tensor<8x1x3x3xf32>) {
    ^bb0(%in: f32, %out: f32):
      %85 = arith.addf %in, %out : f32
      linalg.yield %85 : f32
    } -> tensor<8x1x3x3xf32>
    %82 = tensor.empty() : tensor<8xf32>
    %83 = linalg.fill ins(%cst : f32) outs(%82 : tensor<8xf32>) -> tensor<8xf32>
    %84 = linalg.generic {indexing_maps = [#map, #map12], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%73 : tensor<256x8x14x14xf32>) outs(%83 : tensor<8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %85 = arith.addf %in, %out : f32
      linalg.yield %85 : f32
    } -> tensor<8xf32>
    return %30, %81, %84, %67, %70, %46, %collapsed_6, %10 : tensor<f32>, tensor<8x1x3x3xf32>, tensor<8xf32>, tensor<16x8x3x3xf32>, tensor<16xf32>, tensor<10x784xf32>, tensor<10xf32>, tensor<256x10xf32>
  }
}
