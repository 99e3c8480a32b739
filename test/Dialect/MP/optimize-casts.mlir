// RUN: mp-opt %s --split-input-file --mp-optimize-casts | FileCheck %s

// truncf(extf(x)) folds to x; extf(truncf(x)) rounds and is kept.
// CHECK-LABEL: func.func @round_trips
// CHECK-SAME: (%[[H:.*]]: tensor<4xf16>, %[[F:.*]]: tensor<4xf32>)
// CHECK: %[[T:.*]] = arith.truncf %[[F]] : tensor<4xf32> to tensor<4xf16>
// CHECK: %[[E:.*]] = arith.extf %[[T]] : tensor<4xf16> to tensor<4xf32>
// CHECK: return %[[H]], %[[E]]
func.func @round_trips(%h: tensor<4xf16>, %f: tensor<4xf32>) -> (tensor<4xf16>, tensor<4xf32>) {
  %0 = arith.extf %h : tensor<4xf16> to tensor<4xf32>
  %1 = arith.truncf %0 : tensor<4xf32> to tensor<4xf16>
  %2 = arith.truncf %f : tensor<4xf32> to tensor<4xf16>
  %3 = arith.extf %2 : tensor<4xf16> to tensor<4xf32>
  return %1, %3 : tensor<4xf16>, tensor<4xf32>
}

// -----

// Two casts of one value to one type become one, placed at the definition;
// a cast of a loop-invariant value leaves the loop.
// CHECK-LABEL: func.func @merge_and_hoist
// CHECK-SAME: (%[[W:[a-z0-9]+]]: tensor<8x8xf32>
// CHECK-NEXT: %[[W16:.*]] = arith.truncf %[[W]] : tensor<8x8xf32> to tensor<8x8xf16>
// CHECK-NOT: arith.truncf
// CHECK: scf.for
// CHECK: linalg.matmul ins(%[[W16]], %[[W16]]
// CHECK-NOT: arith.truncf
// CHECK: return
func.func @merge_and_hoist(%w: tensor<8x8xf32>, %acc: tensor<8x8xf32>, %n: index) -> tensor<8x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %acc) -> (tensor<8x8xf32>) {
    %0 = arith.truncf %w : tensor<8x8xf32> to tensor<8x8xf16>
    %1 = arith.truncf %w : tensor<8x8xf32> to tensor<8x8xf16>
    %2 = linalg.matmul ins(%0, %1 : tensor<8x8xf16>, tensor<8x8xf16>) outs(%a : tensor<8x8xf32>) -> tensor<8x8xf32>
    scf.yield %2 : tensor<8x8xf32>
  }
  return %r : tensor<8x8xf32>
}

// -----

// Casts convert the smaller tensor: before a broadcast, after a slice or an
// element extraction.
// CHECK-LABEL: func.func @smaller_side
// CHECK-SAME: (%[[B:.*]]: tensor<16xf32>, %[[X:.*]]: tensor<64x64xf16>
// CHECK-DAG: %[[B16:.*]] = arith.truncf %[[B]] : tensor<16xf32> to tensor<16xf16>
// CHECK-DAG: %[[E:.*]] = tensor.empty() : tensor<32x16xf16>
// CHECK: %[[BC:.*]] = linalg.broadcast ins(%[[B16]] : tensor<16xf16>) outs(%[[E]] : tensor<32x16xf16>)
// CHECK: %[[S:.*]] = tensor.extract_slice %[[X]][0, 0] [4, 4] [1, 1] : tensor<64x64xf16> to tensor<4x4xf16>
// CHECK: %[[S32:.*]] = arith.extf %[[S]] : tensor<4x4xf16> to tensor<4x4xf32>
// CHECK: %[[EL:.*]] = tensor.extract %[[X]][%{{.*}}, %{{.*}}] : tensor<64x64xf16>
// CHECK: %[[EL32:.*]] = arith.extf %[[EL]] : f16 to f32
// CHECK: return %[[BC]], %[[S32]], %[[EL32]]
func.func @smaller_side(%b: tensor<16xf32>, %x: tensor<64x64xf16>, %i: index) -> (tensor<32x16xf16>, tensor<4x4xf32>, f32) {
  %e = tensor.empty() : tensor<32x16xf32>
  %0 = linalg.broadcast ins(%b : tensor<16xf32>) outs(%e : tensor<32x16xf32>) dimensions = [0]
  %1 = arith.truncf %0 : tensor<32x16xf32> to tensor<32x16xf16>
  %2 = arith.extf %x : tensor<64x64xf16> to tensor<64x64xf32>
  %3 = tensor.extract_slice %2[0, 0] [4, 4] [1, 1] : tensor<64x64xf32> to tensor<4x4xf32>
  %4 = tensor.extract %2[%i, %i] : tensor<64x64xf32>
  return %1, %3, %4 : tensor<32x16xf16>, tensor<4x4xf32>, f32
}

// -----

// Casts of constants and of fills are folded at compile time, unless a value
// overflows.
// CHECK-LABEL: func.func @constants
// CHECK-DAG: %[[C:.*]] = arith.constant dense<[1.000000e+00, 2.500000e+00]> : tensor<2xf16>
// CHECK-DAG: %[[BIG:.*]] = arith.constant dense<1.000000e+05> : tensor<2xf32>
// CHECK-DAG: %[[T:.*]] = arith.truncf %[[BIG]] : tensor<2xf32> to tensor<2xf16>
// CHECK-DAG: %[[Z:.*]] = arith.constant 0.000000e+00 : f16
// CHECK-DAG: %[[E:.*]] = tensor.empty() : tensor<8xf16>
// CHECK: %[[F:.*]] = linalg.fill ins(%[[Z]] : f16) outs(%[[E]] : tensor<8xf16>)
// CHECK: return %[[C]], %[[T]], %[[F]]
func.func @constants() -> (tensor<2xf16>, tensor<2xf16>, tensor<8xf16>) {
  %c = arith.constant dense<[1.0, 2.5]> : tensor<2xf32>
  %0 = arith.truncf %c : tensor<2xf32> to tensor<2xf16>
  %big = arith.constant dense<100000.0> : tensor<2xf32>
  %1 = arith.truncf %big : tensor<2xf32> to tensor<2xf16>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %2 = arith.truncf %f : tensor<8xf32> to tensor<8xf16>
  return %0, %1, %2 : tensor<2xf16>, tensor<2xf16>, tensor<8xf16>
}

// -----

// Graphs without casts are left alone.
// CHECK-LABEL: func.func @no_casts
// CHECK-NEXT: arith.addf
// CHECK-NEXT: return
func.func @no_casts(%a: f32) -> f32 {
  %0 = arith.addf %a, %a : f32
  return %0 : f32
}

// -----

// A cast of a duplicate cast: the duplicate is erased when its group merges,
// and the cast of it is merged in a second round, keyed by the cast that was
// kept (it read the erased cast: a use after free found by the pipeline
// fuzzer).
// CHECK-LABEL: func.func @cast_of_duplicate_cast
// CHECK: %[[E:.*]] = arith.extf %arg0 : tensor<4xf16> to tensor<4xf32>
// CHECK-NEXT: %[[T:.*]] = arith.truncf %[[E]] : tensor<4xf32> to tensor<4xbf16>
// CHECK-NEXT: return %[[E]], %[[E]], %[[T]], %[[T]]
func.func @cast_of_duplicate_cast(%x: tensor<4xf16>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xbf16>, tensor<4xbf16>) {
  %a = arith.extf %x : tensor<4xf16> to tensor<4xf32>
  %b = arith.extf %x : tensor<4xf16> to tensor<4xf32>
  %c = arith.truncf %b : tensor<4xf32> to tensor<4xbf16>
  %d = arith.truncf %a : tensor<4xf32> to tensor<4xbf16>
  return %a, %b, %c, %d : tensor<4xf32>, tensor<4xf32>, tensor<4xbf16>, tensor<4xbf16>
}
