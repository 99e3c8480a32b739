// RUN: mp-opt %s --split-input-file --verify-diagnostics --mp-insert-casts

func.func @wrong_arity(%x: tensor<4xf32>, %n: index) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @below {{'mp.precision' on this op must be an array of 1 precisions, one per carried value}}
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%h = %x) -> (tensor<4xf32>) {
    scf.yield %h : tensor<4xf32>
  } {mp.precision = #mp.precision<f16>}
  return %r : tensor<4xf32>
}

// -----

// expected-error @below {{'mp.precision' does not apply to a function; 'mp.signature_precision' gives the precision its signature may take}}
func.func @function_precision(%x: tensor<4xf32>) -> tensor<4xf32> attributes {mp.precision = #mp.precision<f16>} {
  return %x : tensor<4xf32>
}

// -----

func.func @precision_on_fixed_f32_types(%scale: tensor<f32>, %tracker: tensor<i32>, %inf: tensor<i1>) -> (tensor<f32>, tensor<i32>) {
  // expected-error @below {{'mp.precision' asks for f16, but this op's operand and result types must stay f32}}
  %s, %t = mp.update_scale %scale, %tracker, %inf {mp.precision = #mp.precision<f16>}
  return %s, %t : tensor<f32>, tensor<i32>
}

// -----

// The body of an op with mp.precision computes in that precision; an op in
// it asking for another one is an error (asking for the same is fine, see
// insert-casts.mlir). Found by the pipeline fuzzer (it built arith.addf on f16
// and f32).
func.func @body_precision_conflict(%x: tensor<16xf32>) -> tensor<16xf32> {
  %e = tensor.empty() : tensor<16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%x : tensor<16xf32>) outs(%e : tensor<16xf32>) attrs = {mp.precision = #mp.precision<f16>} {
  ^bb0(%a: f32, %o: f32):
    // expected-error @below {{'mp.precision' here contradicts the op around it, whose body computes in f16; drop one of the two attributes}}
    %s = arith.addf %a, %a {mp.precision = #mp.precision<bf16>} : f32
    linalg.yield %s : f32
  } -> tensor<16xf32>
  return %r : tensor<16xf32>
}

// -----

func.func private @callee(tensor<4xf32>) -> tensor<4xf32>
func.func @precision_on_call(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @below {{'mp.precision' cannot change a call's types: they are its callee's (set 'mp.signature_precision' on the callee)}}
  %r = func.call @callee(%x) {mp.precision = #mp.precision<bf16>} : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// Found by the pipeline fuzzer: the declaration was given a signature
// without arguments, and the call no longer matched it.
// expected-error @below {{'mp.signature_precision' on a declaration: mp changes the signature of functions whose body it rewrites, and this one has none}}
func.func private @declared(tensor<4xf32>) -> tensor<4xf32> attributes {mp.signature_precision = #mp.precision<bf16>}
func.func @calls_declared(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = func.call @declared(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// Found by the pipeline fuzzer: f64 operands met bf16 ones in the matmul's
// regenerated body.
func.func @precision_on_f64(%a: tensor<4x8xf64>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
  // expected-error @below {{'mp.precision' asks for bf16 on an op with 'f64' values; mp changes f32 values only}}
  %r = linalg.matmul {mp.precision = #mp.precision<bf16>} ins(%a, %b : tensor<4x8xf64>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// -----

// Found by the pipeline fuzzer (in CI): buffers cannot take casts.
func.func @precision_on_buffers(%a: memref<64x64xf32>, %c: memref<64x64xf32>) {
  // expected-error @below {{'mp.precision' asks for f16 on an op on buffers; mp changes tensors and scalars only}}
  linalg.matmul {mp.precision = #mp.precision<f16>} ins(%a, %a : memref<64x64xf32>, memref<64x64xf32>) outs(%c : memref<64x64xf32>)
  return
}

// -----

// Found by the pipeline fuzzer (in CI): what scf.forall.in_parallel inserts
// goes into shared outputs, which keep their types.
func.func @precision_in_parallel(%t: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %r = scf.forall (%i) in (8) shared_outs(%o = %t) -> (tensor<8x8xf32>) {
    %s = tensor.extract_slice %t[%i, 0] [1, 8] [1, 1] : tensor<8x8xf32> to tensor<1x8xf32>
    scf.forall.in_parallel {
      // expected-error @below {{'mp.precision' asks for f16, but this op's operand and result types must stay f32}}
      tensor.parallel_insert_slice %s into %o[%i, 0] [1, 8] [1, 1] {mp.precision = #mp.precision<f16>} : tensor<1x8xf32> into tensor<8x8xf32>
    }
  }
  return %r : tensor<8x8xf32>
}

// -----

// Found by the pipeline fuzzer: a hand-written accumulator of the other low
// type made insert-casts add bf16 to f16.
func.func @accumulator_of_other_type(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
  // expected-error @below {{'mp.accumulator' asks for bf16 accumulation in an op computing in f16; an accumulator is f32 or the op's own precision}}
  %r = linalg.matmul {mp.accumulator = #mp.precision<bf16>, mp.precision = #mp.precision<f16>} ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}
