// RUN: mp-opt %s --split-input-file --mp-write-into-slices | FileCheck %s

// A concatenation of a transpose (reshaped) and a negation: each writes its
// slice, the destination's allocation moves before the first writer and
// no copy or source buffer is left.
// CHECK-LABEL: func.func @concat
// CHECK-SAME: (%[[A:.*]]: memref<4x2x8xf32>, %[[B:.*]]: memref<4x16xf32>)
// CHECK-NEXT: %[[CAT:.*]] = memref.alloc() : memref<4x32xf32>
// CHECK-NEXT: %[[S0:.*]] = memref.subview %[[CAT]][0, 0] [4, 16] [1, 1]
// CHECK-NEXT: %[[E0:.*]] = memref.expand_shape %[[S0]] {{\[}}[0], [1, 2]] output_shape [4, 8, 2] : memref<4x16xf32, strided<[32, 1]>> into memref<4x8x2xf32, strided<[32, 2, 1]>>
// CHECK-NEXT: linalg.transpose ins(%[[A]] : memref<4x2x8xf32>) outs(%[[E0]] : memref<4x8x2xf32, strided<[32, 2, 1]>>)
// CHECK-NEXT: %[[S1:.*]] = memref.subview %[[CAT]][0, 16] [4, 16] [1, 1]
// CHECK-NEXT: linalg.negf ins(%[[B]] : memref<4x16xf32>) outs(%[[S1]] : memref<4x16xf32, strided<[32, 1], offset: 16>>)
// CHECK-NOT: memref.copy
// CHECK-NOT: memref.dealloc
// CHECK: return %[[CAT]]
func.func @concat(%a: memref<4x2x8xf32>, %b: memref<4x16xf32>) -> memref<4x32xf32> {
  %t = memref.alloc() : memref<4x8x2xf32>
  linalg.transpose ins(%a : memref<4x2x8xf32>) outs(%t : memref<4x8x2xf32>) permutation = [0, 2, 1]
  %c = memref.collapse_shape %t [[0], [1, 2]] : memref<4x8x2xf32> into memref<4x16xf32>
  %n = memref.alloc() : memref<4x16xf32>
  linalg.negf ins(%b : memref<4x16xf32>) outs(%n : memref<4x16xf32>)
  %cat = memref.alloc() : memref<4x32xf32>
  %s0 = memref.subview %cat[0, 0] [4, 16] [1, 1] : memref<4x32xf32> to memref<4x16xf32, strided<[32, 1]>>
  memref.copy %c, %s0 : memref<4x16xf32> to memref<4x16xf32, strided<[32, 1]>>
  %s1 = memref.subview %cat[0, 16] [4, 16] [1, 1] : memref<4x32xf32> to memref<4x16xf32, strided<[32, 1], offset: 16>>
  memref.copy %n, %s1 : memref<4x16xf32> to memref<4x16xf32, strided<[32, 1], offset: 16>>
  memref.dealloc %t : memref<4x8x2xf32>
  memref.dealloc %n : memref<4x16xf32>
  return %cat : memref<4x32xf32>
}

// -----

// An op between the writer and the copy writes another slice (kept) and
// one that overlaps the target: the copy stays.
// CHECK-LABEL: func.func @overlap
// CHECK: linalg.negf ins(%{{.*}} : memref<4x16xf32>) outs(%[[N:.*]] : memref<4x16xf32>)
// CHECK: memref.copy %[[N]], %{{.*}} : memref<4x16xf32> to memref<4x16xf32, strided<[32, 1], offset: 8>>
func.func @overlap(%b: memref<4x16xf32>, %x: f32) -> memref<4x32xf32> {
  %cat = memref.alloc() : memref<4x32xf32>
  %n = memref.alloc() : memref<4x16xf32>
  linalg.negf ins(%b : memref<4x16xf32>) outs(%n : memref<4x16xf32>)
  %apart = memref.subview %cat[0, 24] [4, 8] [1, 1] : memref<4x32xf32> to memref<4x8xf32, strided<[32, 1], offset: 24>>
  linalg.fill ins(%x : f32) outs(%apart : memref<4x8xf32, strided<[32, 1], offset: 24>>)
  %over = memref.subview %cat[0, 0] [4, 9] [1, 1] : memref<4x32xf32> to memref<4x9xf32, strided<[32, 1]>>
  linalg.fill ins(%x : f32) outs(%over : memref<4x9xf32, strided<[32, 1]>>)
  %s = memref.subview %cat[0, 8] [4, 16] [1, 1] : memref<4x32xf32> to memref<4x16xf32, strided<[32, 1], offset: 8>>
  memref.copy %n, %s : memref<4x16xf32> to memref<4x16xf32, strided<[32, 1], offset: 8>>
  return %cat : memref<4x32xf32>
}

// -----

// Disjoint slices between the writer and the copy: forwarded.
// CHECK-LABEL: func.func @disjoint
// CHECK: %[[CAT:.*]] = memref.alloc() : memref<4x32xf32>
// CHECK: %[[S:.*]] = memref.subview %[[CAT]][0, 8] [4, 16] [1, 1]
// CHECK-NEXT: linalg.negf ins(%{{.*}} : memref<4x16xf32>) outs(%[[S]] :
// CHECK-NOT: memref.copy
// CHECK: return
func.func @disjoint(%b: memref<4x16xf32>, %x: f32) -> memref<4x32xf32> {
  %cat = memref.alloc() : memref<4x32xf32>
  %n = memref.alloc() : memref<4x16xf32>
  linalg.negf ins(%b : memref<4x16xf32>) outs(%n : memref<4x16xf32>)
  %left = memref.subview %cat[0, 0] [4, 8] [1, 1] : memref<4x32xf32> to memref<4x8xf32, strided<[32, 1]>>
  linalg.fill ins(%x : f32) outs(%left : memref<4x8xf32, strided<[32, 1]>>)
  %right = memref.subview %cat[0, 24] [4, 8] [1, 1] : memref<4x32xf32> to memref<4x8xf32, strided<[32, 1], offset: 24>>
  linalg.fill ins(%x : f32) outs(%right : memref<4x8xf32, strided<[32, 1], offset: 24>>)
  %s = memref.subview %cat[0, 8] [4, 16] [1, 1] : memref<4x32xf32> to memref<4x16xf32, strided<[32, 1], offset: 8>>
  memref.copy %n, %s : memref<4x16xf32> to memref<4x16xf32, strided<[32, 1], offset: 8>>
  return %cat : memref<4x32xf32>
}

// -----

// The source has another reader, the writer reads its init, the writer
// reads the target, or the reshape back has no layout: every copy stays.
// CHECK-LABEL: func.func @kept
// CHECK-COUNT-4: memref.copy
// CHECK-NOT: memref.copy
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @kept(%b: memref<4x16xf32>, %r: memref<4x16xf32>) {
  %n = memref.alloc() : memref<4x16xf32>
  linalg.negf ins(%b : memref<4x16xf32>) outs(%n : memref<4x16xf32>)
  linalg.copy ins(%n : memref<4x16xf32>) outs(%r : memref<4x16xf32>)
  %dst = memref.alloc() : memref<4x32xf32>
  %s = memref.subview %dst[0, 0] [4, 16] [1, 1] : memref<4x32xf32> to memref<4x16xf32, strided<[32, 1]>>
  memref.copy %n, %s : memref<4x16xf32> to memref<4x16xf32, strided<[32, 1]>>

  %m = memref.alloc() : memref<4x16xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%b : memref<4x16xf32>) outs(%m : memref<4x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %sum = arith.addf %in, %out : f32
    linalg.yield %sum : f32
  }
  %s1 = memref.subview %dst[0, 16] [4, 16] [1, 1] : memref<4x32xf32> to memref<4x16xf32, strided<[32, 1], offset: 16>>
  memref.copy %m, %s1 : memref<4x16xf32> to memref<4x16xf32, strided<[32, 1], offset: 16>>

  %cat2 = memref.alloc() : memref<4x32xf32>
  %lo = memref.subview %cat2[0, 0] [4, 16] [1, 1] : memref<4x32xf32> to memref<4x16xf32, strided<[32, 1]>>
  %hi = memref.subview %cat2[0, 16] [4, 16] [1, 1] : memref<4x32xf32> to memref<4x16xf32, strided<[32, 1], offset: 16>>
  %p = memref.alloc() : memref<4x16xf32>
  linalg.negf ins(%lo : memref<4x16xf32, strided<[32, 1]>>) outs(%p : memref<4x16xf32>)
  memref.copy %p, %lo : memref<4x16xf32> to memref<4x16xf32, strided<[32, 1]>>

  %q = memref.alloc() : memref<4x16xf32>
  linalg.negf ins(%b : memref<4x16xf32>) outs(%q : memref<4x16xf32>)
  %e = memref.expand_shape %q [[0], [1, 2]] output_shape [4, 2, 8] : memref<4x16xf32> into memref<4x2x8xf32>
  %w = memref.alloc() : memref<4x2x16xf32>
  %ws = memref.subview %w[0, 0, 0] [4, 2, 8] [1, 1, 1] : memref<4x2x16xf32> to memref<4x2x8xf32, strided<[32, 16, 1]>>
  memref.copy %e, %ws : memref<4x2x8xf32> to memref<4x2x8xf32, strided<[32, 16, 1]>>
  return
}
