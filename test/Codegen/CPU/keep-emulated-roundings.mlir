// RUN: mp-opt %s --mp-keep-emulated-roundings | FileCheck %s
// RUN: mp-opt %s --mp-keep-emulated-roundings --canonicalize | FileCheck %s --check-prefix=FOLDED

// `contract` goes from extensions and truncations of f16 and bf16 (other
// flags stay), so the rounding of (a + b) to bf16 is not folded away; other
// types keep their flags.
// CHECK-LABEL: func.func @chain
// CHECK: %[[S:.*]] = arith.truncf %{{.*}} : f32 to bf16
// CHECK: %[[E:.*]] = arith.extf %[[S]] : bf16 to f32
// CHECK: arith.truncf %{{.*}} fastmath<nnan> : vector<4xf32> to vector<4xf16>
// CHECK: arith.extf %{{.*}} fastmath<contract> : f32 to f64
// FOLDED-LABEL: func.func @chain
// FOLDED: %[[SUM:.*]] = arith.addf %arg0, %arg1 : f32
// FOLDED: %[[R:.*]] = arith.truncf %[[SUM]] : f32 to bf16
// FOLDED: %[[X:.*]] = arith.extf %[[R]] : bf16 to f32
// FOLDED: arith.addf %[[X]], %arg2 : f32
func.func @chain(%a: f32, %b: f32, %c: f32, %v: vector<4xf32>) -> (f32, vector<4xf16>, f64) {
  %sum = arith.addf %a, %b : f32
  %s = arith.truncf %sum fastmath<contract> : f32 to bf16
  %e = arith.extf %s fastmath<contract> : bf16 to f32
  %r = arith.addf %e, %c : f32
  %h = arith.truncf %v fastmath<contract, nnan> : vector<4xf32> to vector<4xf16>
  %d = arith.extf %r fastmath<contract> : f32 to f64
  return %r, %h, %d : f32, vector<4xf16>, f64
}
