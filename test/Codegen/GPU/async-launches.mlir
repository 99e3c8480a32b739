// RUN: mp-opt %s --split-input-file --mp-gpu-async-launches | FileCheck %s
// RUN: mp-opt %s --split-input-file --mp-gpu-async-launches=wait-at-return=false \
// RUN:   | FileCheck %s --check-prefix=QUEUED

// Launches chain on the stream; the host waits before it reads a device
// buffer and before it returns. Allocations and deallocations between
// launches need no wait.
// CHECK-LABEL: func.func @chain
// CHECK-SAME: (%[[A:.*]]: memref<16xf32>, %[[S:.*]]: memref<f32>)
// CHECK: %[[T0:.*]] = gpu.wait async
// CHECK-NEXT: %[[T1:.*]] = gpu.launch_func async [%[[T0]]] @kernels::@scale blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) {{ *}}args(%[[A]] : memref<16xf32>)
// CHECK-NEXT: %[[B:.*]] = memref.alloc() : memref<16xf32>
// CHECK-NEXT: %[[T2:.*]] = gpu.launch_func async [%[[T1]]] @kernels::@scale {{.*}} args(%[[B]] : memref<16xf32>)
// CHECK-NEXT: memref.dealloc %[[B]]
// CHECK-NEXT: %[[T3:.*]] = gpu.launch_func async [%[[T2]]] @kernels::@sum {{.*}} args(%[[A]] : memref<16xf32>, %[[S]] : memref<f32>)
// CHECK-NEXT: gpu.wait [%[[T3]]]
// CHECK-NEXT: %[[V:.*]] = memref.load %[[S]][]
// CHECK-NEXT: %[[W:.*]] = arith.addf %[[V]], %[[V]]
// CHECK-NEXT: memref.store %[[W]], %[[S]][]
// CHECK-NEXT: %[[T4:.*]] = gpu.wait async
// CHECK-NEXT: %[[T5:.*]] = gpu.launch_func async [%[[T4]]] @kernels::@scale
// CHECK-NEXT: gpu.wait [%[[T5]]]
// CHECK-NEXT: return
// With wait-at-return=false, an entry's chain starts at its beginning and it
// returns with its last kernels queued: the caller waits.
// QUEUED-LABEL: func.func @chain
// QUEUED-NEXT: %[[T0:.*]] = gpu.wait async
// QUEUED-NEXT: arith.constant
// QUEUED-NEXT: arith.constant
// QUEUED-NEXT: %[[T1:.*]] = gpu.launch_func async [%[[T0]]] @kernels::@scale
// QUEUED: gpu.wait [%{{.*}}]
// QUEUED-NEXT: memref.load
// QUEUED: %[[T4:.*]] = gpu.wait async
// QUEUED-NEXT: %[[T5:.*]] = gpu.launch_func async [%[[T4]]] @kernels::@scale
// QUEUED-NEXT: return
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%a: memref<16xf32>) kernel { gpu.return }
    gpu.func @sum(%a: memref<16xf32>, %s: memref<f32>) kernel { gpu.return }
  }
  func.func @chain(%a: memref<16xf32>, %s: memref<f32>) {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    gpu.launch_func @kernels::@scale blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%a : memref<16xf32>)
    %b = memref.alloc() : memref<16xf32>
    gpu.launch_func @kernels::@scale blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%b : memref<16xf32>)
    memref.dealloc %b : memref<16xf32>
    gpu.launch_func @kernels::@sum blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%a : memref<16xf32>, %s : memref<f32>)
    %v = memref.load %s[] : memref<f32>
    %w = arith.addf %v, %v : f32
    memref.store %w, %s[] : memref<f32>
    gpu.launch_func @kernels::@scale blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%a : memref<16xf32>)
    return
  }
}

// -----

// The deallocation bookkeeping's small host arrays move to the stack (their
// deallocations go), so that neither they nor the helper that reads them
// need a wait; a buffer over 4 KiB stays, and reading it waits. A function
// without launches gets no token.
// CHECK-LABEL: func.func @host_arrays
// CHECK: %[[T0:.*]] = gpu.wait async
// CHECK-NEXT: %[[T1:.*]] = gpu.launch_func async [%[[T0]]]
// CHECK-NEXT: %[[P:.*]] = memref.alloca() {alignment = 8 : i64} : memref<2xindex>
// CHECK-NEXT: %[[F:.*]] = memref.alloca() : memref<2xi1>
// CHECK-NEXT: %[[BIG:.*]] = memref.alloc() : memref<2048xi32>
// CHECK: memref.store %{{.*}}, %[[P]][%c0]
// CHECK-NEXT: %[[C:.*]] = memref.cast %[[P]]
// CHECK-NEXT: call @helper(%[[C]], %[[F]])
// CHECK-NEXT: %[[FLAG:.*]] = memref.load %[[F]][%c0]
// CHECK-NEXT: scf.if %[[FLAG]] {
// CHECK-NEXT: memref.dealloc
// CHECK-NEXT: }
// CHECK-NEXT: gpu.wait [%[[T1]]]
// CHECK-NEXT: memref.load %[[BIG]][%c0]
// CHECK-NEXT: memref.dealloc %[[BIG]]
// CHECK-NEXT: return
// CHECK-LABEL: func.func private @helper
// CHECK-NOT: gpu.wait
// CHECK: return
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%a: memref<16xf32>) kernel { gpu.return }
  }
  func.func @host_arrays(%a: memref<16xf32>, %d: memref<16xf32>) -> i32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    gpu.launch_func @kernels::@scale blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%a : memref<16xf32>)
    %p = memref.alloc() {alignment = 8 : i64} : memref<2xindex>
    %f = memref.alloc() : memref<2xi1>
    %big = memref.alloc() : memref<2048xi32>
    %ptr = memref.extract_aligned_pointer_as_index %d : memref<16xf32> -> index
    memref.store %ptr, %p[%c0] : memref<2xindex>
    %cast = memref.cast %p : memref<2xindex> to memref<?xindex>
    call @helper(%cast, %f) : (memref<?xindex>, memref<2xi1>) -> ()
    %flag = memref.load %f[%c0] : memref<2xi1>
    scf.if %flag {
      memref.dealloc %d : memref<16xf32>
    }
    %r = memref.load %big[%c0] : memref<2048xi32>
    memref.dealloc %p : memref<2xindex>
    memref.dealloc %f : memref<2xi1>
    memref.dealloc %big : memref<2048xi32>
    return %r : i32
  }
  func.func private @helper(%p: memref<?xindex>, %f: memref<2xi1>) {
    %c0 = arith.constant 0 : index
    %true = arith.constant true
    %v = memref.load %p[%c0] : memref<?xindex>
    memref.store %true, %f[%c0] : memref<2xi1>
    return
  }
}

// -----

// A stream-ordered runtime call joins the chain (and starts one); any other
// call of a function taking device memory waits.
// CHECK-LABEL: func.func @calls
// CHECK: %[[T0:.*]] = gpu.wait async
// CHECK-NEXT: call @mp_cuda_gemm
// CHECK-NEXT: %[[T1:.*]] = gpu.launch_func async [%[[T0]]]
// CHECK-NEXT: call @mp_cuda_gemm
// CHECK-NEXT: gpu.wait [%[[T1]]]
// CHECK-NEXT: call @consume
// CHECK-NEXT: return
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%a: memref<16xf32>) kernel { gpu.return }
  }
  func.func private @mp_cuda_gemm(i64) attributes {mp.gpu_stream_ordered}
  func.func private @consume(memref<16xf32>)
  func.func @calls(%a: memref<16xf32>, %x: i64) {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    call @mp_cuda_gemm(%x) : (i64) -> ()
    gpu.launch_func @kernels::@scale blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%a : memref<16xf32>)
    call @mp_cuda_gemm(%x) : (i64) -> ()
    call @consume(%a) : (memref<16xf32>) -> ()
    return
  }
}

// -----

// A loop that launches: the host waits before it, and each trip chains its
// own launches and waits for them before the next.
// CHECK-LABEL: func.func @loop
// CHECK: %[[T0:.*]] = gpu.wait async
// CHECK-NEXT: %[[T1:.*]] = gpu.launch_func async [%[[T0]]]
// CHECK-NEXT: gpu.wait [%[[T1]]]
// CHECK-NEXT: scf.for
// CHECK-NEXT: %[[U0:.*]] = gpu.wait async
// CHECK-NEXT: %[[U1:.*]] = gpu.launch_func async [%[[U0]]]
// CHECK-NEXT: %[[U2:.*]] = gpu.launch_func async [%[[U1]]]
// CHECK-NEXT: gpu.wait [%[[U2]]]
// CHECK-NEXT: }
// CHECK-NEXT: return
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%a: memref<16xf32>) kernel { gpu.return }
  }
  func.func @loop(%a: memref<16xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    gpu.launch_func @kernels::@scale blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%a : memref<16xf32>)
    scf.for %i = %c0 to %c16 step %c1 {
      gpu.launch_func @kernels::@scale blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%a : memref<16xf32>)
      gpu.launch_func @kernels::@scale blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%a : memref<16xf32>)
    }
    return
  }
}

// -----

// A call of a function of this module that launches kernels (and calls no
// other such function: the gradient function a training step calls) is
// inlined, so the caller's launches and the callee's form one chain with one
// wait, before the caller returns. The callee keeps its own chain.
// CHECK-LABEL: func.func @grad
// CHECK: %[[G0:.*]] = gpu.wait async
// CHECK-NEXT: %[[G1:.*]] = gpu.launch_func async [%[[G0]]] @kernels::@scale
// CHECK-NEXT: gpu.wait [%[[G1]]]
// CHECK-NEXT: return
// CHECK-LABEL: func.func @step
// CHECK-NOT: call @grad
// CHECK: %[[T0:.*]] = gpu.wait async
// CHECK-NEXT: %[[T1:.*]] = gpu.launch_func async [%[[T0]]] @kernels::@scale
// CHECK-NEXT: %[[T2:.*]] = gpu.launch_func async [%[[T1]]] @kernels::@sum
// CHECK-NEXT: gpu.wait [%[[T2]]]
// CHECK-NEXT: return
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%a: memref<16xf32>) kernel { gpu.return }
    gpu.func @sum(%a: memref<16xf32>, %s: memref<f32>) kernel { gpu.return }
  }
  func.func @grad(%a: memref<16xf32>) {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    gpu.launch_func @kernels::@scale blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%a : memref<16xf32>)
    return
  }
  func.func @step(%a: memref<16xf32>, %s: memref<f32>) {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    call @grad(%a) : (memref<16xf32>) -> ()
    gpu.launch_func @kernels::@sum blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%a : memref<16xf32>, %s : memref<f32>)
    return
  }
}

// -----

// An entry that writes device memory before its first launch waits first
// with wait-at-return=false (an earlier call's kernels may still read it).
// A function that the module calls is no entry: it waits before it returns,
// since its caller goes on as if the stream were idle. @leaf, inlined into
// its one caller, is an entry of its own.
// CHECK-LABEL: func.func @writes_first
// CHECK-NEXT: arith.constant
// CHECK-NEXT: memref.store
// CHECK-NEXT: arith.constant
// CHECK-NEXT: arith.constant
// CHECK-NEXT: %[[T0:.*]] = gpu.wait async
// QUEUED-LABEL: func.func @writes_first
// QUEUED-NEXT: %[[T0:.*]] = gpu.wait async
// QUEUED-NEXT: arith.constant
// QUEUED-NEXT: gpu.wait [%[[T0]]]
// QUEUED-NEXT: memref.store
// QUEUED: %[[T1:.*]] = gpu.wait async
// QUEUED-NEXT: %[[T2:.*]] = gpu.launch_func async [%[[T1]]]
// QUEUED-NEXT: return
// QUEUED-LABEL: func.func @leaf
// QUEUED: gpu.launch_func async
// QUEUED-NEXT: return
// QUEUED-LABEL: func.func @mid
// QUEUED: %[[M1:.*]] = gpu.launch_func async
// QUEUED-NEXT: gpu.wait [%[[M1]]]
// QUEUED-NEXT: return
// QUEUED-LABEL: func.func @top
// QUEUED-NEXT: %[[U0:.*]] = gpu.wait async
// QUEUED-NEXT: gpu.wait [%[[U0]]]
// QUEUED-NEXT: call @mid
// QUEUED-NEXT: return
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%a: memref<16xf32>) kernel { gpu.return }
  }
  func.func @writes_first(%a: memref<16xf32>, %v: f32) {
    %c0 = arith.constant 0 : index
    memref.store %v, %a[%c0] : memref<16xf32>
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    gpu.launch_func @kernels::@scale blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%a : memref<16xf32>)
    return
  }
  func.func @leaf(%a: memref<16xf32>) {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    gpu.launch_func @kernels::@scale blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%a : memref<16xf32>)
    return
  }
  func.func @mid(%a: memref<16xf32>) {
    call @leaf(%a) : (memref<16xf32>) -> ()
    return
  }
  func.func @top(%a: memref<16xf32>) {
    call @mid(%a) : (memref<16xf32>) -> ()
    return
  }
}
