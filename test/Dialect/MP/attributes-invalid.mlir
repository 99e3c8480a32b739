// RUN: mp-opt %s --split-input-file --verify-diagnostics

// expected-error @below {{'mp.override' must be a precision such as #mp.precision<f16>, got "f16"}}
func.func @bad_override() attributes {mp.override = "f16"} {
  return
}

// -----

// expected-error @below {{'mp.precision' must be a precision or an array of precisions, got 3 : i64}}
func.func @bad_precision() attributes {mp.precision = 3} {
  return
}

// -----

// expected-error @below {{unknown mp attribute 'mp.colour'}}
func.func @unknown() attributes {mp.colour = #mp.class<allow>} {
  return
}

// -----

// expected-error @below {{expected ::mlir::mp::Precision to be one of: f32, f16, bf16, f8e4m3, f8e5m2}}
// expected-error @below {{failed to parse MP_PrecisionAttr parameter 'value'}}
func.func @bad_enum() attributes {mp.override = #mp.precision<f64>} {
  return
}

// -----

// expected-error @below {{argument #0: 'mp.param' takes no value (write {mp.param})}}
func.func @param_value(%w: tensor<4xf32> {mp.param = 1 : i64}) {
  return
}

// -----

// expected-error @below {{result #0: 'mp.grad_of' must be the index of a parameter argument, e.g. {mp.grad_of = 0 : i64}}}
func.func @grad_of_value(%w: tensor<4xf32>) -> (tensor<4xf32> {mp.grad_of = "w"}) {
  return %w : tensor<4xf32>
}

// -----

// expected-error @below {{argument #0: unknown mp attribute 'mp.weight' (known: mp.param, mp.input, mp.grad_seed, mp.state, mp.loss_scale)}}
func.func @unknown_role(%w: tensor<4xf32> {mp.weight}) {
  return
}

// -----

// expected-error @below {{argument #0: 'mp.state' must be the state's initial value, e.g. {mp.state = 0.0 : f32}}}
func.func @state_value(%s: tensor<f32> {mp.state = "zero"}) {
  return
}

// -----

// expected-error @below {{result #0: 'mp.updates' must be the index of the argument it updates, e.g. {mp.updates = 0 : i64}}}
func.func @updates_value(%s: tensor<f32>) -> (tensor<f32> {mp.updates = -1 : i64}) {
  return %s : tensor<f32>
}

// -----

// expected-error @below {{result #0: 'mp.found_inf' takes no value (write {mp.found_inf})}}
func.func @found_inf_value(%f: tensor<i1>) -> (tensor<i1> {mp.found_inf = true}) {
  return %f : tensor<i1>
}

// -----

// An argument's role on a result.
// expected-error @below {{result #0: unknown mp attribute 'mp.param' (known: mp.loss, mp.grad_of, mp.updates, mp.found_inf, mp.output)}}
func.func @result_role(%w: tensor<4xf32>) -> (tensor<4xf32> {mp.param}) {
  return %w : tensor<4xf32>
}

// -----

func.func @signature_precision_on_op(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @below {{'mp.signature_precision' belongs on a function}}
  %0 = arith.negf %x {mp.signature_precision = #mp.precision<f16>} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @bad_gpu_tile(%a: tensor<64x64xf16>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  // expected-error @below {{'mp.gpu_tile' must be array<i64: tile-m, tile-n, warp-m, warp-n> of positive sizes, warp-m dividing tile-m and warp-n tile-n, got array<i64: 64, 64, 24, 32>}}
  %r = linalg.matmul {mp.gpu_tile = array<i64: 64, 64, 24, 32>} ins(%a, %a : tensor<64x64xf16>, tensor<64x64xf16>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}

// -----

// expected-error @below {{'mp.gpu_copy' must be "ahead" or "prefetch", got "later"}}
func.func @bad_copy() attributes {mp.gpu_copy = "later"} {
  return
}

// -----

// expected-error @below {{'mp.gpu_reduction' must be "block" or "warp", got "thread"}}
func.func @bad_reduction() attributes {mp.gpu_reduction = "thread"} {
  return
}

// -----

// expected-error @below {{'mp.gpu_stream_ordered' must be a unit attribute, got true}}
func.func private @bad_stream_ordered() attributes {mp.gpu_stream_ordered = true}

// -----

func.func @stream_ordered_on_op(%x: f32) -> f32 {
  // expected-error @below {{'mp.gpu_stream_ordered' belongs on a function}}
  %0 = arith.negf %x {mp.gpu_stream_ordered} : f32
  return %0 : f32
}

// -----

// expected-error @below {{'mp.gpu_chip_variants' must be a dictionary of module names to symbol references, got {a = "b"}}}
module attributes {mp.gpu_chip_variants = {a = "b"}} {
}

// -----

// expected-error @below {{'mp.gpu_chip_variants' must be a dictionary of module names to symbol references, got [@a]}}
module attributes {mp.gpu_chip_variants = [@a]} {
}
