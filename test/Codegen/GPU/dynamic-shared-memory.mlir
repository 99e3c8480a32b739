// RUN: mp-opt %s --split-input-file --mp-gpu-dynamic-shared-memory --verify-diagnostics | FileCheck %s
// RUN: mp-opt %s --split-input-file --mp-gpu-dynamic-shared-memory --convert-gpu-to-nvvm --verify-diagnostics | FileCheck %s --check-prefix=NVVM
// RUN: mp-opt %s --split-input-file --mp-gpu-dynamic-shared-memory=static-limit=98304 --verify-diagnostics | FileCheck %s --check-prefix=LIMIT

#wg = #gpu.address_space<workgroup>

// A 128 x 128 GEMM block: A and B panels (double-buffered) and the 64 KiB
// C tile, 98304 bytes: views at 0, 16384 and 32768 of the dynamic shared
// memory, and the launch asks for all of it. The small kernel stays static,
// and so does the big one with static-limit=98304.
// LIMIT: gpu.func @big(%{{.*}}: memref<128x128xf32>) workgroup(
// CHECK-LABEL: module attributes {gpu.container_module}
// CHECK: func.func @host
// CHECK: %[[BYTES:.*]] = arith.constant 98304 : i32
// CHECK: gpu.launch_func @m::@big {{.*}} dynamic_shared_memory_size %[[BYTES]]
// CHECK: gpu.launch_func @m::@small
// CHECK-NOT: dynamic_shared_memory_size
// CHECK: gpu.module @m
// CHECK-NEXT: llvm.mlir.global external @__mp_dynamic_shared() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
// CHECK: gpu.func @big(%[[ARG:.*]]: memref<128x128xf32>) kernel {
// CHECK: %[[SHARED:.*]] = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C16384:.*]] = arith.constant 16384 : index
// CHECK-DAG: %[[C32768:.*]] = arith.constant 32768 : index
// CHECK-DAG: %[[A:.*]] = memref.view %[[SHARED]][%[[C0]]][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<2x128x32xf16, #gpu.address_space<workgroup>>
// CHECK-DAG: %[[B:.*]] = memref.view %[[SHARED]][%[[C16384]]][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<2x32x128xf16, #gpu.address_space<workgroup>>
// CHECK-DAG: %[[C:.*]] = memref.view %[[SHARED]][%[[C32768]]][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<128x128xf32, #gpu.address_space<workgroup>>
// CHECK: call @use(%[[A]], %[[B]], %[[C]], %[[ARG]])
// CHECK: gpu.func @small() workgroup(%{{.*}} : memref<64x64xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}) kernel
// NVVM-LABEL: gpu.module @m
// NVVM: llvm.mlir.global external @__mp_dynamic_shared()
// NVVM-NOT: llvm.mlir.global internal @__dynamic_shmem
// NVVM: llvm.func @big
// NVVM: llvm.mlir.addressof @__mp_dynamic_shared : !llvm.ptr<3>
module attributes {gpu.container_module} {
  func.func @host(%c: memref<128x128xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @m::@big blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%c : memref<128x128xf32>)
    gpu.launch_func @m::@small blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
  gpu.module @m [#nvvm.target<chip = "sm_80">, #nvvm.target<chip = "sm_90a">] {
    func.func private @use(memref<2x128x32xf16, #wg>, memref<2x32x128xf16, #wg>, memref<128x128xf32, #wg>, memref<128x128xf32>)
    func.func private @use_small(memref<64x64xf32, #wg>)
    gpu.func @big(%arg: memref<128x128xf32>) workgroup(%a : memref<2x128x32xf16, #wg> {llvm.align = 16 : i64}, %b : memref<2x32x128xf16, #wg> {llvm.align = 16 : i64}, %cc : memref<128x128xf32, #wg> {llvm.align = 16 : i64}) kernel {
      func.call @use(%a, %b, %cc, %arg) : (memref<2x128x32xf16, #wg>, memref<2x32x128xf16, #wg>, memref<128x128xf32, #wg>, memref<128x128xf32>) -> ()
      gpu.return
    }
    gpu.func @small() workgroup(%s : memref<64x64xf32, #wg> {llvm.align = 16 : i64}) kernel {
      func.call @use_small(%s) : (memref<64x64xf32, #wg>) -> ()
      gpu.return
    }
  }
}

// -----

#wg = #gpu.address_space<workgroup>

// Buffers aligned to 1024 bytes (wgmma's panels): each at a multiple of
// 1024 from the first such address of the dynamic shared memory, whose
// distance from its 16-aligned start the launch adds (1008 bytes): 57856 +
// 1008 bytes. A chip variant sizes its module's launch.
// CHECK-LABEL: module attributes {gpu.container_module, mp.gpu_chip_variants
// CHECK: %[[BYTES:.*]] = arith.constant 58864 : i32
// CHECK: gpu.launch_func @m::@k {{.*}} dynamic_shared_memory_size %[[BYTES]]
// CHECK: gpu.module @m
// CHECK: gpu.func @k() kernel {
// CHECK: %[[SHARED0:.*]] = gpu.dynamic_shared_memory
// CHECK-NOT: memref.extract_aligned_pointer_as_index
// CHECK: memref.view %[[SHARED0]][%{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<128x96xf32, #gpu.address_space<workgroup>>
// CHECK: memref.view %[[SHARED0]][%{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<2x64xf32, #gpu.address_space<workgroup>>
// CHECK: gpu.module @m_sm_90a
// CHECK: gpu.func @k() kernel {
// CHECK: %[[SHARED:.*]] = gpu.dynamic_shared_memory
// CHECK: %[[ADDRESS:.*]] = memref.extract_aligned_pointer_as_index %[[SHARED]]
// CHECK: %[[NEG:.*]] = arith.subi %{{.*}}, %[[ADDRESS]] : index
// CHECK: %[[MASK:.*]] = arith.constant 1023 : index
// CHECK: %[[START:.*]] = arith.andi %[[NEG]], %[[MASK]] : index
// CHECK: memref.view %[[SHARED]][%[[START]]][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<64x64xf16, #gpu.address_space<workgroup>>
// CHECK: %[[C8192:.*]] = arith.constant 8192 : index
// CHECK: %[[SECOND:.*]] = arith.addi %[[START]], %[[C8192]] : index
// CHECK: memref.view %[[SHARED]][%[[SECOND]]][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<128x96xf32, #gpu.address_space<workgroup>>
// CHECK: %[[C57344:.*]] = arith.constant 57344 : index
// CHECK: %[[THIRD:.*]] = arith.addi %[[START]], %[[C57344]] : index
// CHECK: memref.view %[[SHARED]][%[[THIRD]]][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<2x64xf32, #gpu.address_space<workgroup>>
module attributes {gpu.container_module, mp.gpu_chip_variants = {m_sm_90a = @m}} {
  func.func @host() {
    %c1 = arith.constant 1 : index
    gpu.launch_func @m::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
  gpu.module @m [#nvvm.target<chip = "sm_80">] {
    func.func private @use(memref<64x64xf16, #wg>, memref<128x96xf32, #wg>, memref<2x64xf32, #wg>)
    gpu.func @k() workgroup(%a : memref<64x64xf16, #wg> {llvm.align = 16 : i64}, %c : memref<128x96xf32, #wg> {llvm.align = 16 : i64}, %d : memref<2x64xf32, #wg> {llvm.align = 16 : i64}) kernel {
      func.call @use(%a, %c, %d) : (memref<64x64xf16, #wg>, memref<128x96xf32, #wg>, memref<2x64xf32, #wg>) -> ()
      gpu.return
    }
  }
  gpu.module @m_sm_90a [#nvvm.target<chip = "sm_90a">] {
    func.func private @use(memref<64x64xf16, #wg>, memref<128x96xf32, #wg>, memref<2x64xf32, #wg>)
    gpu.func @k() workgroup(%a : memref<64x64xf16, #wg> {llvm.align = 1024 : i64}, %c : memref<128x96xf32, #wg> {llvm.align = 1024 : i64}, %d : memref<2x64xf32, #wg> {llvm.align = 1024 : i64}) kernel {
      func.call @use(%a, %c, %d) : (memref<64x64xf16, #wg>, memref<128x96xf32, #wg>, memref<2x64xf32, #wg>) -> ()
      gpu.return
    }
  }
}

// -----

#wg = #gpu.address_space<workgroup>

// More than a block of an sm_86 gets (99 KiB): an error naming the kernel.
module attributes {gpu.container_module} {
  gpu.module @m [#nvvm.target<chip = "sm_80">, #nvvm.target<chip = "sm_86">] {
    func.func private @use(memref<256x128xf32, #wg>)
    // expected-error @+1 {{kernel 'huge' needs 131072 bytes of shared memory, more than a block gets on sm_86 (101376): choose smaller tiles (mp-lower-to-gpu tile-m, tile-n) or fewer stages (stages=1 single-buffers)}}
    gpu.func @huge() workgroup(%c : memref<256x128xf32, #wg> {llvm.align = 16 : i64}) kernel {
      func.call @use(%c) : (memref<256x128xf32, #wg>) -> ()
      gpu.return
    }
  }
}

// -----

#wg = #gpu.address_space<workgroup>

// A buffer with a layout cannot be a view of the dynamic shared memory.
module attributes {gpu.container_module} {
  gpu.module @m [#nvvm.target<chip = "sm_90a">] {
    func.func private @use(memref<256x128xf32, strided<[129, 1]>, #wg>)
    // expected-error-re @+1 {{kernel 'strided' needs 131072 bytes of shared memory, more than {{49152|98304}} static, but its workgroup buffer #0 has a layout, which dynamic shared memory cannot view}}
    gpu.func @strided() workgroup(%c : memref<256x128xf32, strided<[129, 1]>, #wg>) kernel {
      func.call @use(%c) : (memref<256x128xf32, strided<[129, 1]>, #wg>) -> ()
      gpu.return
    }
  }
}

// -----

#wg = #gpu.address_space<workgroup>

// Elements of index (64 bits, as NVVM lowers them) and vector types are
// sized; an invalid alignment is ignored. A kernel with a buffer of unknown
// size (a dynamic shape, which does not lower anyway) is left as it is.
// CHECK-LABEL: gpu.func @unknown() workgroup(
// CHECK: gpu.func @sized() kernel {
// CHECK: memref.view %{{.*}}[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<8192xindex, #gpu.address_space<workgroup>>
// CHECK: memref.view %{{.*}}[%c65536][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<10xvector<4xf32>, #gpu.address_space<workgroup>>
module attributes {gpu.container_module} {
  gpu.module @m [#nvvm.target<chip = "sm_90a">] {
    func.func private @use(memref<8192xindex, #wg>, memref<?xf32, #wg>)
    gpu.func @unknown() workgroup(%c : memref<8192xindex, #wg>, %d : memref<?xf32, #wg>) kernel {
      func.call @use(%c, %d) : (memref<8192xindex, #wg>, memref<?xf32, #wg>) -> ()
      gpu.return
    }
    func.func private @use_sized(memref<8192xindex, #wg>, memref<10xvector<4xf32>, #wg>)
    gpu.func @sized() workgroup(%c : memref<8192xindex, #wg>, %d : memref<10xvector<4xf32>, #wg> {llvm.align = 0 : i64}) kernel {
      func.call @use_sized(%c, %d) : (memref<8192xindex, #wg>, memref<10xvector<4xf32>, #wg>) -> ()
      gpu.return
    }
  }
}

// -----

#wg = #gpu.address_space<workgroup>

// A GEMM block's C tile that a fill sets before the K loop, read into the
// accumulators, written after the loop and copied out: the reads become
// the fill's constant and the fill's stores go (the writes after the loop,
// one vector<4xf32> for each of the 1024 threads, cover the 64x64 tile).
// The tile is then used only after the loop, where the panels are not:
// it takes the panel A's bytes (offset 0), and before its first store each
// thread waits for its cp.async copies, then a barrier. 64 KiB instead of
// 80. The panels, used together, keep apart. A kernel that issues no
// cp.async (@kept_apart below, the same without the copy) gets the barrier
// alone.
// CHECK-LABEL: func.func @host
// CHECK: %[[BYTES:.*]] = arith.constant 65536 : i32
// CHECK: gpu.launch_func @m::@reuse {{.*}} dynamic_shared_memory_size %[[BYTES]]
// CHECK: gpu.func @reuse(%[[OUT:.*]]: memref<64x64xf32>, %{{.*}}: memref<64x128xf16>) kernel
// CHECK-DAG: %[[A:.*]] = memref.view %{{.*}}[%c0{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<2x64x128xf16, #gpu.address_space<workgroup>>
// CHECK-DAG: %[[B:.*]] = memref.view %{{.*}}[%c32768{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<2x128x64xf16, #gpu.address_space<workgroup>>
// CHECK-DAG: %[[C:.*]] = memref.view %{{.*}}[%c0{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<64x64xf32, #gpu.address_space<workgroup>>
// CHECK-NOT: %[[C]]
// CHECK: gpu.barrier
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<4xf32>
// CHECK-NEXT: %[[SUM:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %[[ZERO]])
// CHECK: nvgpu.device_async_copy %[[IN:.*]][%{{.*}}, %{{.*}}], %[[A]][%{{.*}}, %{{.*}}, %{{.*}}], 8
// CHECK: }
// CHECK-NEXT: nvvm.cp.async.wait.group 0
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: vector.store %[[SUM]], %[[C]]
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: vector.load %[[C]]
module attributes {gpu.container_module} {
  func.func @host(%out: memref<64x64xf32>, %in: memref<64x128xf16>) {
    %c1 = arith.constant 1 : index
    %c1024 = arith.constant 1024 : index
    gpu.launch_func @m::@reuse blocks in (%c1, %c1, %c1) threads in (%c1024, %c1, %c1) args(%out : memref<64x64xf32>, %in : memref<64x128xf16>)
    gpu.launch_func @m::@kept_apart blocks in (%c1, %c1, %c1) threads in (%c1024, %c1, %c1) args(%out : memref<64x64xf32>)
    gpu.launch_func @m::@kept blocks in (%c1, %c1, %c1) threads in (%c1024, %c1, %c1) args(%out : memref<64x64xf32>)
    return
  }
  gpu.module @m [#nvvm.target<chip = "sm_90a">] {
    func.func private @panels(memref<2x64x128xf16, #wg>, memref<2x128x64xf16, #wg>)
    func.func private @step(vector<4xf32>) -> vector<4xf32>
    gpu.func @reuse(%out: memref<64x64xf32>, %in: memref<64x128xf16>) workgroup(%a : memref<2x64x128xf16, #wg> {llvm.align = 16 : i64}, %b : memref<2x128x64xf16, #wg> {llvm.align = 16 : i64}, %cc : memref<64x64xf32, #wg> {llvm.align = 16 : i64}) kernel attributes {known_block_size = array<i32: 1024, 1, 1>} {
      %zero = arith.constant dense<0.0> : vector<4xf32>
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c16 = arith.constant 16 : index
      %t = gpu.thread_id x
      %row = arith.divui %t, %c16 : index
      %rem = arith.remui %t, %c16 : index
      %col = arith.muli %rem, %c4 : index
      func.call @panels(%a, %b) : (memref<2x64x128xf16, #wg>, memref<2x128x64xf16, #wg>) -> ()
      vector.store %zero, %cc[%row, %col] : memref<64x64xf32, #wg>, vector<4xf32>
      gpu.barrier
      %acc = vector.load %cc[%row, %col] : memref<64x64xf32, #wg>, vector<4xf32>
      %sum = scf.for %k = %c0 to %c4 step %c1 iter_args(%x = %acc) -> (vector<4xf32>) {
        func.call @panels(%a, %b) : (memref<2x64x128xf16, #wg>, memref<2x128x64xf16, #wg>) -> ()
        %copy = nvgpu.device_async_copy %in[%row, %col], %a[%c0, %row, %col], 8 : memref<64x128xf16> to memref<2x64x128xf16, #wg>
        %y = func.call @step(%x) : (vector<4xf32>) -> vector<4xf32>
        scf.yield %y : vector<4xf32>
      }
      vector.store %sum, %cc[%row, %col] : memref<64x64xf32, #wg>, vector<4xf32>
      gpu.barrier
      %v = vector.load %cc[%row, %col] : memref<64x64xf32, #wg>, vector<4xf32>
      vector.store %v, %out[%row, %col] : memref<64x64xf32>, vector<4xf32>
      gpu.return
    }
    // CHECK-LABEL: gpu.func @kept_apart
    // CHECK: scf.for
    // CHECK: }
    // CHECK-NEXT: gpu.barrier
    // CHECK-NEXT: vector.store
    gpu.func @kept_apart(%out: memref<64x64xf32>) workgroup(%a : memref<2x64x128xf16, #wg> {llvm.align = 16 : i64}, %b : memref<2x128x64xf16, #wg> {llvm.align = 16 : i64}, %cc : memref<64x64xf32, #wg> {llvm.align = 16 : i64}) kernel attributes {known_block_size = array<i32: 1024, 1, 1>} {
      %zero = arith.constant dense<0.0> : vector<4xf32>
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c16 = arith.constant 16 : index
      %t = gpu.thread_id x
      %row = arith.divui %t, %c16 : index
      %rem = arith.remui %t, %c16 : index
      %col = arith.muli %rem, %c4 : index
      vector.store %zero, %cc[%row, %col] : memref<64x64xf32, #wg>, vector<4xf32>
      gpu.barrier
      %acc = vector.load %cc[%row, %col] : memref<64x64xf32, #wg>, vector<4xf32>
      %sum = scf.for %k = %c0 to %c4 step %c1 iter_args(%x = %acc) -> (vector<4xf32>) {
        func.call @panels(%a, %b) : (memref<2x64x128xf16, #wg>, memref<2x128x64xf16, #wg>) -> ()
        %y = func.call @step(%x) : (vector<4xf32>) -> vector<4xf32>
        scf.yield %y : vector<4xf32>
      }
      vector.store %sum, %cc[%row, %col] : memref<64x64xf32, #wg>, vector<4xf32>
      gpu.barrier
      %v = vector.load %cc[%row, %col] : memref<64x64xf32, #wg>, vector<4xf32>
      vector.store %v, %out[%row, %col] : memref<64x64xf32>, vector<4xf32>
      gpu.return
    }
    // Read in the loop (not only before it): the fill stays, the reads
    // stay, and so the tile is in use over the loop and keeps its bytes.
    // CHECK-LABEL: gpu.func @kept
    // CHECK-DAG: %[[KA:.*]] = memref.view %{{.*}}[%c0{{.*}}][] : {{.*}} to memref<2x64x128xf16, #gpu.address_space<workgroup>>
    // CHECK-DAG: %[[KC:.*]] = memref.view %{{.*}}[%c65536{{.*}}][] : {{.*}} to memref<64x64xf32, #gpu.address_space<workgroup>>
    // CHECK: vector.store %{{.*}}, %[[KC]]
    // CHECK: scf.for
    // CHECK: vector.load %[[KC]]
    // CHECK-NOT: nvvm.cp.async.wait.group
    // CHECK: gpu.return
    gpu.func @kept(%out: memref<64x64xf32>) workgroup(%a : memref<2x64x128xf16, #wg> {llvm.align = 16 : i64}, %b : memref<2x128x64xf16, #wg> {llvm.align = 16 : i64}, %cc : memref<64x64xf32, #wg> {llvm.align = 16 : i64}) kernel attributes {known_block_size = array<i32: 1024, 1, 1>} {
      %zero = arith.constant dense<0.0> : vector<4xf32>
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c16 = arith.constant 16 : index
      %t = gpu.thread_id x
      %row = arith.divui %t, %c16 : index
      %rem = arith.remui %t, %c16 : index
      %col = arith.muli %rem, %c4 : index
      vector.store %zero, %cc[%row, %col] : memref<64x64xf32, #wg>, vector<4xf32>
      gpu.barrier
      scf.for %k = %c0 to %c4 step %c1 {
        func.call @panels(%a, %b) : (memref<2x64x128xf16, #wg>, memref<2x128x64xf16, #wg>) -> ()
        %x = vector.load %cc[%row, %col] : memref<64x64xf32, #wg>, vector<4xf32>
        %y = func.call @step(%x) : (vector<4xf32>) -> vector<4xf32>
        vector.store %y, %cc[%row, %col] : memref<64x64xf32, #wg>, vector<4xf32>
      }
      gpu.barrier
      %v = vector.load %cc[%row, %col] : memref<64x64xf32, #wg>, vector<4xf32>
      vector.store %v, %out[%row, %col] : memref<64x64xf32>, vector<4xf32>
      gpu.return
    }
  }
}
