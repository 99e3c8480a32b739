// RUN: mp-opt %s --pass-pipeline='builtin.module(gpu.module(mp-gpu-launch-bounds))' | FileCheck %s
// RUN: mp-opt %s --pass-pipeline='builtin.module(gpu.module(mp-gpu-launch-bounds{max-blocks=2}))' | FileCheck %s --check-prefix=TWO
// RUN: not mp-opt %s --pass-pipeline='builtin.module(gpu.module(mp-gpu-launch-bounds{max-blocks=-1}))' 2>&1 | FileCheck %s --check-prefix=INVALID

// Kernels whose grid has at most max-blocks blocks (16 unless told) may
// take the registers of one block a multiprocessor; larger grids, grids of
// unknown size and functions that are not kernels are left alone.
// INVALID: mp-gpu-launch-bounds: max-blocks=-1 is invalid: expected 0 or more

// CHECK-LABEL: gpu.func @one_block
// CHECK-SAME: nvvm.minctasm = 1 : i32
// TWO-LABEL: gpu.func @one_block
// TWO-SAME: nvvm.minctasm = 1 : i32
// CHECK-LABEL: gpu.func @sixteen_blocks
// CHECK-SAME: nvvm.minctasm = 1 : i32
// TWO-LABEL: gpu.func @sixteen_blocks
// TWO-NOT: minctasm
// CHECK-LABEL: gpu.func @seventeen_blocks
// CHECK-NOT: minctasm
// CHECK-LABEL: gpu.func @unknown_grid
// CHECK-NOT: minctasm
// CHECK-LABEL: gpu.func @not_a_kernel
// CHECK-NOT: minctasm
// CHECK: }
gpu.module @kernels {
  gpu.func @one_block() kernel attributes {known_block_size = array<i32: 64, 2, 1>, known_grid_size = array<i32: 1, 1, 1>} {
    gpu.return
  }
  gpu.func @sixteen_blocks() kernel attributes {known_grid_size = array<i32: 2, 4, 2>} {
    gpu.return
  }
  gpu.func @seventeen_blocks() kernel attributes {known_grid_size = array<i32: 17, 1, 1>} {
    gpu.return
  }
  gpu.func @unknown_grid() kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    gpu.return
  }
  gpu.func @not_a_kernel() attributes {known_grid_size = array<i32: 1, 1, 1>} {
    gpu.return
  }
}
