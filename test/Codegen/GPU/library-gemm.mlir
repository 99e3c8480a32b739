// RUN: mp-opt %s --split-input-file --mp-gpu-library-gemm --canonicalize --cse | FileCheck %s
// RUN: mp-opt %S/Inputs/library-gemm-errors.mlir --split-input-file --verify-diagnostics --mp-gpu-library-gemm
// RUN: mp-opt %s --split-input-file --mp-gpu-library-gemm=emulate=true | FileCheck %s --check-prefix=EMULATE --implicit-check-not=@mp_cuda_

// Arguments: type (0 f16, 1 bf16), batch, M, N, K, then A's address and
// strides along M, K, batch, B's along K, N, batch, C's along M, N, batch,
// and beta. The zero fill of an accumulator allocated here is dropped
// (beta = 0). The declaration says that the call only enqueues its work on
// the stream (mp-gpu-async-launches chains it with the kernels).
// CHECK-LABEL: func.func private @mp_cuda_gemm(i32, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, f32) attributes {mp.gpu_stream_ordered}
// CHECK-LABEL: func.func @zero_fill
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : i64
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : i64
// CHECK-DAG: %[[C29:.*]] = arith.constant 29 : i64
// CHECK-DAG: %[[C37:.*]] = arith.constant 37 : i64
// CHECK-DAG: %[[C61:.*]] = arith.constant 61 : i64
// CHECK-DAG: %[[F16:.*]] = arith.constant 0 : i32
// CHECK-DAG: %[[BETA0:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[ALLOC:.*]] = memref.alloc()
// CHECK-NOT: linalg.fill
// CHECK: %[[PA:.*]] = memref.extract_aligned_pointer_as_index %arg0
// CHECK: %[[A:.*]] = arith.index_cast %[[PA]]
// CHECK: %[[PB:.*]] = memref.extract_aligned_pointer_as_index %arg1
// CHECK: %[[B:.*]] = arith.index_cast %[[PB]]
// CHECK: %[[PC:.*]] = memref.extract_aligned_pointer_as_index %[[ALLOC]]
// CHECK: %[[C:.*]] = arith.index_cast %[[PC]]
// CHECK: call @mp_cuda_gemm(%[[F16]], %[[C1]], %[[C37]], %[[C61]], %[[C29]], %[[A]], %[[C29]], %[[C1]], %[[C0]], %[[B]], %[[C61]], %[[C1]], %[[C0]], %[[C]], %[[C61]], %[[C1]], %[[C0]], %[[BETA0]])
// CHECK-NOT: linalg.matmul
// CHECK: return %[[ALLOC]]
func.func @zero_fill(%a: memref<37x29xf16>, %b: memref<29x61xf16>) -> memref<37x61xf32> {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<37x61xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<37x61xf32>)
  linalg.matmul {mp.gpu_gemm = "library"} ins(%a, %b : memref<37x29xf16>, memref<29x61xf16>) outs(%c : memref<37x61xf32>)
  return %c : memref<37x61xf32>
}

// -----

// An accumulator that is an argument, or read between its fill and the
// contraction, is accumulated into (beta = 1). B^T in torch's form: B's
// strides along K and N are 1 and 16. A bf16 batch: strides along the batch.
// CHECK-LABEL: func.func @accumulate
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : i64
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : i64
// CHECK-DAG: %[[C8:.*]] = arith.constant 8 : i64
// CHECK-DAG: %[[C16:.*]] = arith.constant 16 : i64
// CHECK-DAG: %[[BETA1:.*]] = arith.constant 1.000000e+00 : f32
// CHECK: call @mp_cuda_gemm(%{{.*}}, %[[C1]], %[[C8]], %[[C8]], %[[C16]], %{{.*}}, %[[C16]], %[[C1]], %[[C0]], %{{.*}}, %[[C1]], %[[C16]], %[[C0]], %{{.*}}, %[[C8]], %[[C1]], %[[C0]], %[[BETA1]])
func.func @accumulate(%a: memref<8x16xf16>, %bt: memref<8x16xf16>, %c: memref<8x8xf32>) {
  linalg.generic {
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                       affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>],
      iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %bt : memref<8x16xf16>, memref<8x16xf16>) outs(%c : memref<8x8xf32>)
      attrs = {mp.gpu_gemm = "library"} {
  ^bb0(%x: f16, %y: f16, %acc: f32):
    %xe = arith.extf %x : f16 to f32
    %ye = arith.extf %y : f16 to f32
    %p = arith.mulf %xe, %ye : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// CHECK-LABEL: func.func @read_between
// CHECK-DAG: %[[BETA1:.*]] = arith.constant 1.000000e+00 : f32
// CHECK: linalg.fill
// CHECK: memref.load
// CHECK: call @mp_cuda_gemm({{.*}}, %[[BETA1]])
func.func @read_between(%a: memref<3x4x16xbf16>, %b: memref<3x16x8xbf16>) -> (memref<3x4x8xf32>, f32) {
  %zero = arith.constant 0.0 : f32
  %i = arith.constant 0 : index
  %c = memref.alloc() : memref<3x4x8xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<3x4x8xf32>)
  %v = memref.load %c[%i, %i, %i] : memref<3x4x8xf32>
  linalg.batch_matmul {mp.gpu_gemm = "library"} ins(%a, %b : memref<3x4x16xbf16>, memref<3x16x8xbf16>) outs(%c : memref<3x4x8xf32>)
  return %c, %v : memref<3x4x8xf32>, f32
}

// The batch: bf16 (type 1), batch 3, strides 64, 128 and 32 along it.
// CHECK-LABEL: func.func @batched
// CHECK-DAG: %[[BF16:.*]] = arith.constant 1 : i32
// CHECK-DAG: %[[C3:.*]] = arith.constant 3 : i64
// CHECK-DAG: %[[C32:.*]] = arith.constant 32 : i64
// CHECK-DAG: %[[C64:.*]] = arith.constant 64 : i64
// CHECK-DAG: %[[C128:.*]] = arith.constant 128 : i64
// CHECK: call @mp_cuda_gemm(%[[BF16]], %[[C3]], {{.*}}, %[[C64]], %{{.*}}, {{.*}}, %[[C128]], %{{.*}}, {{.*}}, %[[C32]], %{{.*}})
func.func @batched(%a: memref<3x4x16xbf16>, %b: memref<3x16x8xbf16>, %c: memref<3x4x8xf32>) {
  linalg.batch_matmul {mp.gpu_gemm = "library"} ins(%a, %b : memref<3x4x16xbf16>, memref<3x16x8xbf16>) outs(%c : memref<3x4x8xf32>)
  return
}

// With emulate (mp-lower-to-gpu-emulation) the calls are of the runtime's
// CPU implementation, with the same arguments.
// EMULATE: func.func private @mp_emulated_gemm(
// EMULATE: call @mp_emulated_gemm(
