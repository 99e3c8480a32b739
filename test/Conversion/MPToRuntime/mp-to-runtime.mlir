// RUN: mp-opt %s --split-input-file --convert-mp-to-runtime --verify-diagnostics | FileCheck %s --implicit-check-not=mp.
// RUN: mp-opt %s --split-input-file --convert-mp-to-runtime=cuda-stream --verify-diagnostics | FileCheck %s --check-prefix=CUDA --implicit-check-not=mp.all_reduce --implicit-check-not=mp.world_size --implicit-check-not=@mp_all_reduce

// The runtime's functions are declared once; a buffer's aligned address and
// element count, the dtype (2: bf16, 4: i1) and the kind (0: sum, 1: max)
// are passed.
// CHECK-DAG: func.func private @mp_all_reduce(i64, i64, i32, i32)
// CHECK-DAG: func.func private @mp_world_size() -> i32
// CHECK-LABEL: func.func @step(
// CHECK-SAME: %[[G:.*]]: memref<4x?xbf16>, %[[F:.*]]: memref<i1>)
// CHECK: %[[N:.*]] = call @mp_world_size() : () -> i32
// CHECK: %[[D1:.*]] = memref.dim %[[G]], %c1
// CHECK: %[[COUNT:.*]] = arith.muli %{{.*}}, %[[D1]] : index
// CHECK: %[[P:.*]] = memref.extract_aligned_pointer_as_index %[[G]]
// CHECK: %[[P64:.*]] = arith.index_cast %[[P]] : index to i64
// CHECK: %[[C64:.*]] = arith.index_cast %[[COUNT]] : index to i64
// CHECK: %[[BF16:.*]] = arith.constant 2 : i32
// CHECK: %[[SUM:.*]] = arith.constant 0 : i32
// CHECK: call @mp_all_reduce(%[[P64]], %[[C64]], %[[BF16]], %[[SUM]])
// CHECK: %[[I1:.*]] = arith.constant 4 : i32
// CHECK: %[[MAX:.*]] = arith.constant 1 : i32
// CHECK: call @mp_all_reduce(%{{.*}}, %{{.*}}, %[[I1]], %[[MAX]])
// CHECK: return %[[N]]

// With cuda-stream, the CUDA backend's all-reduce, which puts the reduction
// on its stream (declared stream-ordered for mp-gpu-async-launches).
// CUDA-DAG: func.func private @mp_cuda_all_reduce(i64, i64, i32, i32) attributes {mp.gpu_stream_ordered}
// CUDA-DAG: func.func private @mp_world_size() -> i32
// CUDA-LABEL: func.func @step(
// CUDA: call @mp_world_size() : () -> i32
// CUDA: call @mp_cuda_all_reduce(%{{.*}}, %{{.*}}, %c2_i32, %c0_i32)
// CUDA: call @mp_cuda_all_reduce(%{{.*}}, %{{.*}}, %c4_i32, %c1_i32)
func.func @step(%g: memref<4x?xbf16>, %f: memref<i1>) -> i32 {
  %n = mp.world_size : i32
  mp.all_reduce sum %g : memref<4x?xbf16>
  mp.all_reduce max %f : memref<i1>
  return %n : i32
}

// -----

// A user function with the runtime's name but another type is an error.
// expected-error @below {{@mp_world_size is the runtime's; it must have type '() -> i32'}}
func.func private @mp_world_size() -> f32
func.func @clash() -> i32 {
  %n = mp.world_size : i32
  return %n : i32
}
