// RUN: mp-opt %s --split-input-file --verify-diagnostics

func.func @unscale_count(%scale: tensor<f32>, %g: tensor<4xf32>) {
  // expected-error @below {{'mp.unscale' op has 1 gradients but 2 unscaled results}}
  %a, %b, %inf = mp.unscale %scale, %g : tensor<4xf32> -> tensor<4xf32>, tensor<4xf32>
  return
}

// -----

func.func @unscale_shape(%scale: tensor<f32>, %g: tensor<4xf16>) {
  // expected-error @below {{'mp.unscale' op result #0 has type 'tensor<5xf32>' but gradient #0 has shape 'tensor<4xf16>'; they must have the same shape}}
  %a, %inf = mp.unscale %scale, %g : tensor<4xf16> -> tensor<5xf32>
  return
}

// -----

func.func @unscale_low_result(%scale: tensor<f32>, %g: tensor<4xf16>) {
  // expected-error @below {{result #0 must be variadic of ranked tensor of 32-bit float values}}
  %a, %inf = mp.unscale %scale, %g : tensor<4xf16> -> tensor<4xf16>
  return
}

// -----

func.func @backoff(%scale: tensor<f32>, %t: tensor<i32>, %f: tensor<i1>) {
  // expected-error @below {{'mp.update_scale' op backoff_factor must be in (0, 1), got 1.5}}
  %s, %n = mp.update_scale %scale, %t, %f {backoff_factor = 1.5 : f32}
  return
}

// -----

func.func @interval(%scale: tensor<f32>, %t: tensor<i32>, %f: tensor<i1>) {
  // expected-error @below {{'mp.update_scale' op growth_interval must be at least 1, got 0}}
  %s, %n = mp.update_scale %scale, %t, %f {growth_interval = 0 : i32}
  return
}

// -----

func.func @bounds(%scale: tensor<f32>, %t: tensor<i32>, %f: tensor<i1>) {
  // expected-error @below {{'mp.update_scale' op min_scale (8.000000e+00) exceeds max_scale (4.000000e+00)}}
  %s, %n = mp.update_scale %scale, %t, %f {min_scale = 8.0 : f32, max_scale = 4.0 : f32}
  return
}

// -----

func.func @min_zero(%scale: tensor<f32>, %t: tensor<i32>, %f: tensor<i1>) {
  // expected-error @below {{'mp.update_scale' op min_scale must be positive and finite, got 0}}
  %s, %n = mp.update_scale %scale, %t, %f {min_scale = 0.0 : f32}
  return
}

// -----

func.func @hysteresis_counter(%scale: tensor<f32>, %t: tensor<i32>, %f: tensor<i1>) {
  // expected-error @below {{'mp.update_scale' op hysteresis = 2 needs a hysteresis counter operand (`hysteresis %counter : tensor<i32>`)}}
  %s, %n = mp.update_scale %scale, %t, %f {hysteresis = 2 : i32}
  return
}

// -----

func.func @hysteresis_zero(%scale: tensor<f32>, %t: tensor<i32>, %f: tensor<i1>) {
  // expected-error @below {{'mp.update_scale' op hysteresis must be at least 1, got 0}}
  %s, %n, %h = mp.update_scale %scale, %t, %f hysteresis %t : tensor<i32> {hysteresis = 0 : i32}
  return
}

// -----

func.func @all_reduce_sum_flags(%f: tensor<i1>) {
  // expected-error @below {{'mp.all_reduce' op sum needs f32, f16 or bf16 elements, not 'i1' (use max to OR flags)}}
  %r = mp.all_reduce sum %f : tensor<i1> -> tensor<i1>
  return
}

// -----

func.func @all_reduce_tensor_no_result(%g: tensor<4xf32>) {
  // expected-error @below {{'mp.all_reduce' op on a tensor must return the result}}
  mp.all_reduce sum %g : tensor<4xf32>
  return
}

// -----

func.func @all_reduce_buffer_result(%g: memref<4xf32>) {
  // expected-error @below {{'mp.all_reduce' op on a buffer reduces it in place and has no result}}
  %r = mp.all_reduce sum %g : memref<4xf32> -> tensor<4xf32>
  return
}

// -----

func.func @all_reduce_type(%g: tensor<4xf32>) {
  // expected-error @below {{'mp.all_reduce' op result type 'tensor<4xf16>' differs from the operand's 'tensor<4xf32>'}}
  %r = mp.all_reduce sum %g : tensor<4xf32> -> tensor<4xf16>
  return
}

// -----

func.func @all_reduce_element(%g: tensor<4xi32>) {
  // expected-error @below {{operand #0 must be ranked tensor of 32-bit float or 16-bit float or bfloat16 type or 1-bit signless integer values or memref of 32-bit float or 16-bit float or bfloat16 type or 1-bit signless integer values, but got 'tensor<4xi32>'}}
  %r = mp.all_reduce max %g : tensor<4xi32> -> tensor<4xi32>
  return
}
