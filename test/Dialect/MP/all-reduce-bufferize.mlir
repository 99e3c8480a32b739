// RUN: mp-opt %s --split-input-file --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" | FileCheck %s --check-prefix=BUF

// Bufferization reduces the operand's buffer in place; the tensor is used
// again after the collective, so it is copied first.
// BUF-LABEL: func.func @in_place(
// BUF-SAME: %[[ARG:.*]]: memref<4xf32>)
// BUF: %[[COPY:.*]] = memref.alloc() {{.*}} : memref<4xf32>
// BUF: memref.copy %[[ARG]], %[[COPY]]
// BUF: mp.all_reduce sum %[[COPY]] : memref<4xf32>
// BUF: return %[[COPY]], %[[ARG]]
func.func @in_place(%g: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %r = mp.all_reduce sum %g : tensor<4xf32> -> tensor<4xf32>
  return %r, %g : tensor<4xf32>, tensor<4xf32>
}

// -----

// A strided buffer (a slice) goes through a contiguous copy and back.
// BUF-LABEL: func.func @strided(
// BUF: %[[SUB:.*]] = memref.subview
// BUF: %[[TMP:.*]] = memref.alloc() : memref<2x2xf32>
// BUF: memref.copy %[[SUB]], %[[TMP]]
// BUF: mp.all_reduce sum %[[TMP]] : memref<2x2xf32>
// BUF: memref.copy %[[TMP]], %[[SUB]]
func.func @strided(%g: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %s = tensor.extract_slice %g[0, 0] [2, 2] [1, 1] : tensor<4x4xf32> to tensor<2x2xf32>
  %r = mp.all_reduce sum %s : tensor<2x2xf32> -> tensor<2x2xf32>
  %i = tensor.insert_slice %r into %g[0, 0] [2, 2] [1, 1] : tensor<2x2xf32> into tensor<4x4xf32>
  return %i : tensor<4x4xf32>
}

