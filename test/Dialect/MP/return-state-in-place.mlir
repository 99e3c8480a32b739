// RUN: mp-opt %s --mp-return-state-in-place | FileCheck %s

// After bufferization and deallocation: the clone of the updated argument
// that deallocation returns (and the pointer it compares) becomes the
// argument itself; a clone of another argument (not the one the result
// updates) and results without mp.updates keep theirs.
// CHECK-LABEL: func.func @step(
// CHECK-SAME: %[[P:[a-z0-9]+]]: memref<4xf32>, %[[Q:[a-z0-9]+]]: memref<4xf32>
// CHECK: memref.extract_aligned_pointer_as_index %[[P]]
// CHECK: %[[CQ:.*]] = bufferization.clone %[[Q]]
// CHECK: %[[CR:.*]] = bufferization.clone %[[Q]]
// CHECK: return %[[P]], %[[CQ]], %[[CR]]
func.func @step(%p: memref<4xf32>, %q: memref<4xf32>) -> (memref<4xf32> {mp.updates = 0 : i64}, memref<4xf32> {mp.updates = 0 : i64}, memref<4xf32>) {
  %cp = bufferization.clone %p : memref<4xf32> to memref<4xf32>
  %ptr = memref.extract_aligned_pointer_as_index %cp : memref<4xf32> -> index
  %cq = bufferization.clone %q : memref<4xf32> to memref<4xf32>
  %cr = bufferization.clone %q : memref<4xf32> to memref<4xf32>
  return %cp, %cq, %cr : memref<4xf32>, memref<4xf32>, memref<4xf32>
}
