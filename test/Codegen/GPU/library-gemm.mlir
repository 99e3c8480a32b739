// RUN: mp-opt %s --split-input-file --mp-gpu-library-gemm --canonicalize --cse | FileCheck %s
// RUN: mp-opt %S/Inputs/library-gemm-errors.mlir --split-input-file --verify-diagnostics --mp-gpu-library-gemm
// RUN: mp-opt %s --split-input-file --mp-gpu-library-gemm=emulate=true | FileCheck %s --check-prefix=EMULATE --implicit-check-not=@mp_cuda_

// Arguments: type (0 f16, 1 bf16), batch, M, N, K, then A's address and
// strides along M, K, batch, B's along K, N, batch, D's along M, N, batch,
// beta, D's type (0 f32, 1 the operands') and the bias's address (0: none).
// Without an epilogue D is C. The zero fill of an accumulator allocated here is dropped
// (beta = 0). The declaration says that the call only enqueues its work on
// the stream (mp-gpu-async-launches chains it with the kernels).
// CHECK-LABEL: func.func private @mp_cuda_gemm(i32, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, f32, i32, i64) attributes {mp.gpu_stream_ordered}
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
// CHECK: call @mp_cuda_gemm(%[[F16]], %[[C1]], %[[C37]], %[[C61]], %[[C29]], %[[A]], %[[C29]], %[[C1]], %[[C0]], %[[B]], %[[C61]], %[[C1]], %[[C0]], %[[C]], %[[C61]], %[[C1]], %[[C0]], %[[BETA0]], %[[F16]], %[[C0]])
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
// CHECK: call @mp_cuda_gemm(%{{.*}}, %[[C1]], %[[C8]], %[[C8]], %[[C16]], %{{.*}}, %[[C16]], %[[C1]], %[[C0]], %{{.*}}, %[[C1]], %[[C16]], %[[C0]], %{{.*}}, %[[C8]], %[[C1]], %[[C0]], %[[BETA1]], %{{.*}}, %[[C0]])
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

// f32 operands: cuBLASLt's f32 kernels (element type 2), D f32 (0).
// CHECK-LABEL: func.func @f32
// CHECK-DAG: %[[F32:.*]] = arith.constant 2 : i32
// CHECK-DAG: %[[DF32:.*]] = arith.constant 0 : i32
// CHECK: call @mp_cuda_gemm(%[[F32]], {{.*}}, %[[DF32]], %{{.*}}) :
func.func @f32(%a: memref<4x16xf32>, %b: memref<16x8xf32>, %c: memref<4x8xf32>) {
  linalg.matmul {mp.gpu_gemm = "library"} ins(%a, %b : memref<4x16xf32>, memref<16x8xf32>) outs(%c : memref<4x8xf32>)
  return
}

// -----

// CHECK-LABEL: func.func @read_between
// CHECK-DAG: %[[BETA1:.*]] = arith.constant 1.000000e+00 : f32
// CHECK: linalg.fill
// CHECK: memref.load
// CHECK: call @mp_cuda_gemm({{.*}}, %[[BETA1]], %{{.*}}, %{{.*}})
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

// -----

// cuBLASLt's epilogue computes C's one consumer: D = C + bias along N (f32
// bias, f32 D) is the consumer's output, allocated after the GEMM (moved
// before the call); the consumer and the zero fill go.
// CHECK-LABEL: func.func @bias
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : i64
// CHECK-DAG: %[[F32:.*]] = arith.constant 0 : i32
// CHECK-DAG: %[[BETA0:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[D:.*]] = memref.alloc() : memref<37x61xf32>
// CHECK: %[[PD:.*]] = memref.extract_aligned_pointer_as_index %[[D]]
// CHECK: %[[DA:.*]] = arith.index_cast %[[PD]]
// CHECK: %[[PBIAS:.*]] = memref.extract_aligned_pointer_as_index %arg2
// CHECK: %[[BIAS:.*]] = arith.index_cast %[[PBIAS]]
// CHECK: call @mp_cuda_gemm({{.*}}, %[[DA]], %{{.*}}, %{{.*}}, %[[C0]], %[[BETA0]], %[[F32]], %[[BIAS]])
// CHECK-NEXT: return %[[D]]
func.func @bias(%a: memref<37x29xf16>, %b: memref<29x61xf16>, %bias: memref<61xf32>) -> memref<37x61xf32> {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<37x61xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<37x61xf32>)
  linalg.matmul {mp.gpu_gemm = "library"} ins(%a, %b : memref<37x29xf16>, memref<29x61xf16>) outs(%c : memref<37x61xf32>)
  %d = memref.alloc() : memref<37x61xf32>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%bias, %c : memref<61xf32>, memref<37x61xf32>) outs(%d : memref<37x61xf32>) {
  ^bb0(%x: f32, %y: f32, %out: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  memref.dealloc %c : memref<37x61xf32>
  return %d : memref<37x61xf32>
}

// -----

// The cast of C to the operands' type (D's type 1), batched, from a copy of
// a buffer filled with zeros (the copy goes: beta 0); and C + bias rounded
// to f16 with an f16 bias (widened for the sum, as cuBLASLt adds it).
// CHECK-LABEL: func.func @cast
// CHECK-DAG: %[[NARROW:.*]] = arith.constant 1 : i32
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : i64
// CHECK-DAG: %[[BETA0:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NOT: memref.copy
// CHECK: call @mp_cuda_gemm({{.*}}, %[[BETA0]], %[[NARROW]], %[[C0]])
// CHECK-NEXT: return
func.func @cast(%a: memref<3x4x16xbf16>, %b: memref<3x16x8xbf16>, %d: memref<3x4x8xbf16>) {
  %zero = arith.constant 0.0 : f32
  %z = memref.alloc() : memref<3x4x8xf32>
  linalg.fill ins(%zero : f32) outs(%z : memref<3x4x8xf32>)
  %c = memref.alloc() : memref<3x4x8xf32>
  memref.copy %z, %c : memref<3x4x8xf32> to memref<3x4x8xf32>
  linalg.batch_matmul {mp.gpu_gemm = "library"} ins(%a, %b : memref<3x4x16xbf16>, memref<3x16x8xbf16>) outs(%c : memref<3x4x8xf32>)
  linalg.generic {indexing_maps = [affine_map<(l, i, j) -> (l, i, j)>, affine_map<(l, i, j) -> (l, i, j)>],
                  iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%c : memref<3x4x8xf32>) outs(%d : memref<3x4x8xbf16>) {
  ^bb0(%x: f32, %out: bf16):
    %t = arith.truncf %x : f32 to bf16
    linalg.yield %t : bf16
  }
  return
}

// CHECK-LABEL: func.func @bias_f16
// CHECK-DAG: %[[NARROW:.*]] = arith.constant 1 : i32
// CHECK: %[[PBIAS:.*]] = memref.extract_aligned_pointer_as_index %arg2
// CHECK: %[[BIAS:.*]] = arith.index_cast %[[PBIAS]]
// CHECK: call @mp_cuda_gemm({{.*}}, %[[NARROW]], %[[BIAS]])
// CHECK-NEXT: return
func.func @bias_f16(%a: memref<37x29xf16>, %b: memref<29x61xf16>, %bias: memref<61xf16>, %d: memref<37x61xf16>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<37x61xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<37x61xf32>)
  linalg.matmul {mp.gpu_gemm = "library"} ins(%a, %b : memref<37x29xf16>, memref<29x61xf16>) outs(%c : memref<37x61xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%c, %bias : memref<37x61xf32>, memref<61xf16>) outs(%d : memref<37x61xf16>) {
  ^bb0(%x: f32, %y: f16, %out: f16):
    %w = arith.extf %y : f16 to f32
    %s = arith.addf %x, %w : f32
    %t = arith.truncf %s : f32 to f16
    linalg.yield %t : f16
  }
  return
}

// -----

// A consumer that writes C in place is an epilogue without a zero start:
// D = A x B + D + bias (beta 1).
// CHECK-LABEL: func.func @in_place
// CHECK-DAG: %[[BETA1:.*]] = arith.constant 1.000000e+00 : f32
// CHECK: %[[ALLOC:.*]] = memref.alloc()
// CHECK-NEXT: linalg.fill
// CHECK: %[[PC:.*]] = memref.extract_aligned_pointer_as_index %[[ALLOC]]
// CHECK: %[[C:.*]] = arith.index_cast %[[PC]]
// CHECK: %[[PBIAS:.*]] = memref.extract_aligned_pointer_as_index %arg2
// CHECK: %[[BIAS:.*]] = arith.index_cast %[[PBIAS]]
// CHECK: call @mp_cuda_gemm({{.*}}, %[[C]], %{{.*}}, %{{.*}}, %{{.*}}, %[[BETA1]], %{{.*}}, %[[BIAS]])
// CHECK-NEXT: return %[[ALLOC]]
func.func @in_place(%a: memref<8x16xf16>, %b: memref<16x8xf16>, %bias: memref<8xf32>) -> memref<8x8xf32> {
  %one = arith.constant 1.0 : f32
  %c = memref.alloc() : memref<8x8xf32>
  linalg.fill ins(%one : f32) outs(%c : memref<8x8xf32>)
  linalg.matmul {mp.gpu_gemm = "library"} ins(%a, %b : memref<8x16xf16>, memref<16x8xf16>) outs(%c : memref<8x8xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%c, %bias : memref<8x8xf32>, memref<8xf32>) outs(%c : memref<8x8xf32>) {
  ^bb0(%x: f32, %y: f32, %out: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  return %c : memref<8x8xf32>
}

// -----

// Consumers cuBLASLt's epilogue does not compute exactly stay, and the call
// writes C (D's type 0, no bias): a ReLU (what cuBLASLt's makes of a NaN is
// not documented), a sum in f16 of the rounded C and bias (the AMP rewrite
// of an add that follows its f16 neighbours: rounded twice), a bias along M,
// and a consumer of a C read again after it.
// CHECK-LABEL: func.func @not_epilogues
// CHECK-DAG: %[[F32:.*]] = arith.constant 0 : i32
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : i64
// CHECK: call @mp_cuda_gemm({{.*}}, %[[F32]], %[[C0]])
// CHECK-NEXT: linalg.generic
// CHECK: arith.maximumf
// CHECK: call @mp_cuda_gemm({{.*}}, %[[F32]], %[[C0]])
// CHECK-NEXT: linalg.generic
// CHECK: arith.addf {{.*}} : f16
// CHECK: call @mp_cuda_gemm({{.*}}, %[[F32]], %[[C0]])
// CHECK-NEXT: linalg.generic
// CHECK: call @mp_cuda_gemm({{.*}}, %[[F32]], %[[C0]])
// CHECK-NEXT: linalg.generic
// CHECK: return
#id = affine_map<(i, j) -> (i, j)>
#n = affine_map<(i, j) -> (j)>
#m = affine_map<(i, j) -> (i)>
func.func @not_epilogues(%a: memref<8x16xf16>, %b: memref<16x8xf16>, %bias: memref<8xf32>, %bias16: memref<8xf16>,
                         %d0: memref<8x8xf32>, %d1: memref<8x8xf16>, %d2: memref<8x8xf32>, %d3: memref<8x8xf32>) -> memref<8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %c0 = memref.alloc() : memref<8x8xf32>
  linalg.fill ins(%zero : f32) outs(%c0 : memref<8x8xf32>)
  linalg.matmul {mp.gpu_gemm = "library"} ins(%a, %b : memref<8x16xf16>, memref<16x8xf16>) outs(%c0 : memref<8x8xf32>)
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c0 : memref<8x8xf32>) outs(%d0 : memref<8x8xf32>) {
  ^bb0(%x: f32, %out: f32):
    %r = arith.maximumf %x, %zero : f32
    linalg.yield %r : f32
  }
  %c1 = memref.alloc() : memref<8x8xf32>
  linalg.fill ins(%zero : f32) outs(%c1 : memref<8x8xf32>)
  linalg.matmul {mp.gpu_gemm = "library"} ins(%a, %b : memref<8x16xf16>, memref<16x8xf16>) outs(%c1 : memref<8x8xf32>)
  linalg.generic {indexing_maps = [#id, #n, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c1, %bias : memref<8x8xf32>, memref<8xf32>) outs(%d1 : memref<8x8xf16>) {
  ^bb0(%x: f32, %y: f32, %out: f16):
    %xt = arith.truncf %x : f32 to f16
    %yt = arith.truncf %y : f32 to f16
    %s = arith.addf %xt, %yt : f16
    linalg.yield %s : f16
  }
  %c2 = memref.alloc() : memref<8x8xf32>
  linalg.fill ins(%zero : f32) outs(%c2 : memref<8x8xf32>)
  linalg.matmul {mp.gpu_gemm = "library"} ins(%a, %b : memref<8x16xf16>, memref<16x8xf16>) outs(%c2 : memref<8x8xf32>)
  linalg.generic {indexing_maps = [#id, #m, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c2, %bias : memref<8x8xf32>, memref<8xf32>) outs(%d2 : memref<8x8xf32>) {
  ^bb0(%x: f32, %y: f32, %out: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  %c3 = memref.alloc() : memref<8x8xf32>
  linalg.fill ins(%zero : f32) outs(%c3 : memref<8x8xf32>)
  linalg.matmul {mp.gpu_gemm = "library"} ins(%a, %b : memref<8x16xf16>, memref<16x8xf16>) outs(%c3 : memref<8x8xf32>)
  linalg.generic {indexing_maps = [#id, #n, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c3, %bias : memref<8x8xf32>, memref<8xf32>) outs(%d3 : memref<8x8xf32>) {
  ^bb0(%x: f32, %y: f32, %out: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  return %c3 : memref<8x8xf32>
}

// With emulate (mp-lower-to-gpu-emulation) the calls are of the runtime's
// CPU implementation, with the same arguments.
// EMULATE: func.func private @mp_emulated_gemm(
// EMULATE: call @mp_emulated_gemm(
