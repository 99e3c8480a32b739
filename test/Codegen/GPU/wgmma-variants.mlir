// RUN: mp-opt %S/Inputs/wgmma_gemms.mlir --split-input-file --mp-gpu-tile-contractions='warp-m=16 warp-n=64' --mp-gpu-async-copies --mp-gpu-map-forall-to-launch --mp-gpu-vector-to-mma --gpu-kernel-outlining --nvvm-attach-target=chip=sm_90a --mp-gpu-wgmma-variants --mp-gpu-swizzle-panels --canonicalize --cse -o %t.wgmma.mlir
// RUN: FileCheck %s --check-prefix=WGMMA --input-file=%t.wgmma.mlir --implicit-check-not=nvgpu.mma.sync --implicit-check-not=nvvm.mma.sync --implicit-check-not=nvgpu.ldmatrix --implicit-check-not=mp.gpu_chip_variants
// RUN: %python %S/Inputs/wgmma_layout.py < %t.wgmma.mlir | FileCheck %s --check-prefix=LAYOUT
// RUN: mp-opt %S/Inputs/wgmma_gemms.mlir --split-input-file --mp-gpu-tile-contractions='tile-n=32 warp-m=16 warp-n=32' --mp-gpu-async-copies --mp-gpu-map-forall-to-launch --mp-gpu-vector-to-mma --gpu-kernel-outlining --nvvm-attach-target=chip=sm_90a --mp-gpu-wgmma-variants --mp-gpu-swizzle-panels --canonicalize --cse | %python %S/Inputs/wgmma_layout.py | FileCheck %s --check-prefix=LAYOUT32
// RUN: mp-opt %S/Inputs/wgmma_gemms.mlir --split-input-file --mp-gpu-tile-contractions='tile-m=128 warp-m=16 warp-n=64' --mp-gpu-async-copies --mp-gpu-map-forall-to-launch --mp-gpu-vector-to-mma --gpu-kernel-outlining --nvvm-attach-target=chip=sm_90a --mp-gpu-wgmma-variants --mp-gpu-swizzle-panels --canonicalize --cse -o %t.wgmma128.mlir
// RUN: FileCheck %s --check-prefix=TWO-GROUPS --input-file=%t.wgmma128.mlir
// RUN: %python %S/Inputs/wgmma_layout.py < %t.wgmma128.mlir | FileCheck %s --check-prefix=LAYOUT128
// RUN: mp-opt %S/Inputs/wgmma_gemms.mlir --split-input-file --mp-gpu-tile-contractions='tile-m=128 tile-n=128 warp-m=16 warp-n=128' --mp-gpu-async-copies --mp-gpu-map-forall-to-launch --mp-gpu-vector-to-mma --gpu-kernel-outlining --nvvm-attach-target=chip=sm_90a --mp-gpu-wgmma-variants --mp-gpu-swizzle-panels --canonicalize --cse -o %t.wgmma-n128.mlir
// RUN: FileCheck %s --check-prefix=N128 --input-file=%t.wgmma-n128.mlir --implicit-check-not=nvgpu.mma.sync --implicit-check-not=nvvm.mma.sync --implicit-check-not=nvgpu.ldmatrix
// RUN: %python %S/Inputs/wgmma_layout.py < %t.wgmma-n128.mlir | FileCheck %s --check-prefix=LAYOUT-N128
// RUN: mp-opt %S/Inputs/wgmma_gemms.mlir --split-input-file --mp-gpu-tile-contractions='warp-m=16 warp-n=64 tile-k=64' --mp-gpu-async-copies --mp-gpu-map-forall-to-launch --mp-gpu-vector-to-mma --gpu-kernel-outlining --nvvm-attach-target=chip=sm_90a --mp-gpu-wgmma-variants --mp-gpu-swizzle-panels --canonicalize --cse | %python %S/Inputs/wgmma_layout.py | FileCheck %s --check-prefix=LAYOUT-K64
// RUN: mp-opt %S/Inputs/wgmma_gemms.mlir --split-input-file --mp-gpu-tile-contractions='tile-m=128 tile-n=128 warp-m=16 warp-n=128 tile-k=64' --mp-gpu-async-copies --mp-gpu-map-forall-to-launch --mp-gpu-vector-to-mma --gpu-kernel-outlining --nvvm-attach-target=chip=sm_90a --mp-gpu-wgmma-variants --mp-gpu-swizzle-panels --canonicalize --cse | %python %S/Inputs/wgmma_layout.py | FileCheck %s --check-prefix=LAYOUT-K64-N128
// RUN: mp-opt %S/Inputs/wgmma_gemm_n256.mlir --mp-gpu-tile-contractions='tile-m=128 tile-n=256 warp-m=16 warp-n=256' --mp-gpu-async-copies --mp-gpu-map-forall-to-launch --mp-gpu-vector-to-mma --gpu-kernel-outlining --nvvm-attach-target=chip=sm_90a --mp-gpu-wgmma-variants --mp-gpu-swizzle-panels --canonicalize --cse | %python %S/Inputs/wgmma_layout.py | FileCheck %s --check-prefix=LAYOUT-N256
// RUN: mp-opt %S/Inputs/wgmma_gemms.mlir --split-input-file --mp-gpu-tile-contractions='warp-m=16 warp-n=64' --mp-gpu-async-copies --mp-gpu-map-forall-to-launch --mp-gpu-vector-to-mma --gpu-kernel-outlining --nvvm-attach-target=chip=sm_80 --nvvm-attach-target=chip=sm_90a --mp-gpu-wgmma-variants --canonicalize --cse | FileCheck %s --check-prefix=VARIANTS
// RUN: mp-opt %S/Inputs/wgmma_gemms.mlir --split-input-file --mp-gpu-tile-contractions='warp-m=16 warp-n=64' --mp-gpu-async-copies --mp-gpu-map-forall-to-launch --mp-gpu-vector-to-mma --gpu-kernel-outlining --nvvm-attach-target=chip=sm_80 --mp-gpu-wgmma-variants | FileCheck %s --check-prefix=SM80 --implicit-check-not=wgmma --implicit-check-not=mp.gpu_chip_variants
// RUN: mp-opt %S/Inputs/wgmma_gemms.mlir --split-input-file --mp-gpu-tile-contractions --mp-gpu-async-copies --mp-gpu-map-forall-to-launch --mp-gpu-vector-to-mma --gpu-kernel-outlining --nvvm-attach-target=chip=sm_80 --nvvm-attach-target=chip=sm_90a --mp-gpu-wgmma-variants | FileCheck %s --check-prefix=NOT-WARPGROUP --implicit-check-not=wgmma --implicit-check-not=mp.gpu_chip_variants
// RUN: mp-opt %S/Inputs/wgmma_gemm_k128.mlir --mp-gpu-tile-contractions='warp-m=16 warp-n=64 stages=3 reserve-slot' --mp-gpu-async-copies --mp-gpu-map-forall-to-launch --mp-gpu-vector-to-mma --gpu-kernel-outlining --nvvm-attach-target=chip=sm_90a --mp-gpu-wgmma-variants=in-flight=true --mp-gpu-swizzle-panels --canonicalize --cse | FileCheck %s --check-prefix=IN-FLIGHT
// RUN: mp-opt %S/Inputs/wgmma_gemm_k128.mlir --mp-gpu-tile-contractions='warp-m=16 warp-n=64' --mp-gpu-async-copies --mp-gpu-map-forall-to-launch --mp-gpu-vector-to-mma --gpu-kernel-outlining --nvvm-attach-target=chip=sm_90a --mp-gpu-wgmma-variants=in-flight=true --mp-gpu-swizzle-panels --canonicalize --cse | FileCheck %s --check-prefix=TWO-SLOTS

// The GEMMs of Inputs/wgmma_gemms.mlir, tiled for one warpgroup per block
// and outlined.

// A module for sm_80 and sm_90a keeps mma.sync for sm_80; a copy named
// <module>_sm_90a, for sm_90a alone, computes its K steps with wgmma, and
// the top-level module maps the copy to its module (for
// mp-gpu-merge-chip-variants). The kernels keep their names. bf16 chains
// (nvvm.mma.sync on registers extracted from the ldmatrix'd fragments)
// convert too.
// VARIANTS-LABEL: module attributes {gpu.container_module, mp.gpu_chip_variants = {ab_kernel_sm_90a = @ab_kernel}}
// VARIANTS: gpu.launch_func @ab_kernel::@ab_kernel
// VARIANTS: gpu.module @ab_kernel [#nvvm.target<chip = "sm_80">]
// VARIANTS: gpu.func @ab_kernel(
// VARIANTS-COUNT-16: nvgpu.mma.sync
// VARIANTS-NOT: wgmma
// VARIANTS: gpu.module @ab_kernel_sm_90a [#nvvm.target<chip = "sm_90a">]
// VARIANTS-NOT: nvgpu.mma.sync
// VARIANTS: gpu.func @ab_kernel(
// VARIANTS-NOT: nvgpu.mma.sync
// VARIANTS-COUNT-2: nvvm.wgmma.mma_async
// VARIANTS-LABEL: mp.gpu_chip_variants = {bf16_kernel_sm_90a = @bf16_kernel}
// VARIANTS: gpu.module @bf16_kernel [#nvvm.target<chip = "sm_80">]
// VARIANTS-COUNT-16: nvvm.mma.sync
// VARIANTS-NOT: wgmma
// VARIANTS: gpu.module @bf16_kernel_sm_90a [#nvvm.target<chip = "sm_90a">]
// VARIANTS-NOT: nvvm.mma.sync
// VARIANTS-COUNT-2: nvvm.wgmma.mma_async {{.*}} A[<bf16>, <one>, <row>], B[<bf16>, <one>, <row>]
// VARIANTS-NOT: nvvm.mma.sync

// Blocks of two warpgroups (128 x 64, 8 warps of 16 x 64): each warpgroup
// computes its 64 rows, its A descriptor starting (thread id / 128) x 64
// rows (4096 bytes of 64-byte rows) down the panel. A^T x B reads its A
// panel M-major, with rows of 128 elements (256 bytes, wider than any
// swizzle mode): mp-gpu-swizzle-panels lays the panel out as its two
// 64-column blocks (32 rows of 128 bytes each), and warpgroup g's A starts
// at block g, g x 4096 bytes in.
// TWO-GROUPS-LABEL: gpu.module @ab_kernel
// TWO-GROUPS: known_block_size = array<i32: 32, 8, 1>
// TWO-GROUPS: %[[Z:.*]] = gpu.thread_id z
// TWO-GROUPS-NEXT: %[[ZY:.*]] = arith.muli %[[Z]], %c8 : index
// TWO-GROUPS-NEXT: %[[Y:.*]] = arith.addi %[[ZY]], %thread_id_y : index
// TWO-GROUPS-NEXT: %[[YX:.*]] = arith.muli %[[Y]], %c32 : index
// TWO-GROUPS-NEXT: %[[LINEAR:.*]] = arith.addi %[[YX]], %thread_id_x : index
// TWO-GROUPS-NEXT: %[[GROUP:.*]] = arith.divui %[[LINEAR]], %c128 : index
// TWO-GROUPS-NEXT: %[[BYTES:.*]] = arith.muli %[[GROUP]], %c4096 : index
// TWO-GROUPS-NEXT: %[[OFFSET:.*]] = arith.index_cast %[[BYTES]] : index to i64
// TWO-GROUPS-NEXT: arith.addi %{{.*}}, %[[OFFSET]] : i64
// TWO-GROUPS-NEXT: nvvm.wgmma.fence.aligned
// TWO-GROUPS-COUNT-2: nvvm.wgmma.mma_async
// TWO-GROUPS-LABEL: gpu.module @atb_kernel
// TWO-GROUPS-NOT: nvgpu.mma.sync
// TWO-GROUPS: %[[GROUP:.*]] = arith.divui %{{.*}}, %c128 : index
// TWO-GROUPS-NEXT: %[[BYTES:.*]] = arith.muli %[[GROUP]], %c4096 : index
// TWO-GROUPS-NEXT: %[[OFFSET:.*]] = arith.index_cast %[[BYTES]] : index to i64
// TWO-GROUPS-NEXT: arith.addi %{{.*}}, %[[OFFSET]] : i64
// TWO-GROUPS-NEXT: nvvm.wgmma.fence.aligned
// TWO-GROUPS-COUNT-2: nvvm.wgmma.mma_async
// TWO-GROUPS-NOT: nvgpu.mma.sync
// TWO-GROUPS-LABEL: gpu.module @abt_kernel
// TWO-GROUPS: nvvm.wgmma.mma_async
// LAYOUT128: ab: wgmma m64n64k16 #0: A K-major, B N-major, 2 warpgroups, tiles match
// LAYOUT128-NEXT: ab: wgmma m64n64k16 #1: A K-major, B N-major, 2 warpgroups, tiles match
// LAYOUT128-NEXT: atb: wgmma m64n64k16 #0: A M-major, B N-major, 2 warpgroups, tiles match
// LAYOUT128-NEXT: atb: wgmma m64n64k16 #1: A M-major, B N-major, 2 warpgroups, tiles match
// LAYOUT128-NEXT: abt: wgmma m64n64k16 #0: A K-major, B K-major, 2 warpgroups, tiles match
// LAYOUT128-NEXT: abt: wgmma m64n64k16 #1: A K-major, B K-major, 2 warpgroups, tiles match
// LAYOUT128-NEXT: k16: wgmma m64n64k16 #0: A K-major, B N-major, 2 warpgroups, tiles match
// LAYOUT128-NEXT: bf16: wgmma m64n64k16 #0: A K-major, B N-major, 2 warpgroups, tiles match
// LAYOUT128-NEXT: bf16: wgmma m64n64k16 #1: A K-major, B N-major, 2 warpgroups, tiles match
// LAYOUT128-NEXT: batched: wgmma m64n64k16 #0: A K-major, B N-major, 2 warpgroups, tiles match
// LAYOUT128-NEXT: batched: wgmma m64n64k16 #1: A K-major, B N-major, 2 warpgroups, tiles match

// Blocks of 128 x 128 (two warpgroups of 64 x 128): one m64n128k16 per 16
// of K and warpgroup. An N-major B panel of 128 columns is laid out as two
// 64-column blocks of 32 rows: its descriptors' leading byte offset is the
// 4096 bytes between them (field 256 at bit 16), the stride byte offset the
// 1024 bytes of 8 rows of 128 bytes (64 at bit 32), the 128-byte swizzle
// (1 at bit 62): 0x4000004001000000 = 4611686293322072064. A K-major B
// (A x B^T) of 128 rows needs no blocks. Every element is where the ISA's
// canonical layouts say (LAYOUT-N128).
// N128-LABEL: gpu.module @ab_kernel
// N128-DAG: arith.constant 4611686293322072064 : i64
// N128: nvvm.wgmma.mma_async {{.*}}<m = 64, n = 128, k = 16>
// N128-LABEL: gpu.module @abt_kernel
// N128: nvvm.wgmma.mma_async {{.*}}<m = 64, n = 128, k = 16>
// LAYOUT-N128: ab: wgmma m64n128k16 #0: A K-major, B N-major, 2 warpgroups, tiles match
// LAYOUT-N128-NEXT: ab: wgmma m64n128k16 #1: A K-major, B N-major, 2 warpgroups, tiles match
// LAYOUT-N128-NEXT: atb: wgmma m64n128k16 #0: A M-major, B N-major, 2 warpgroups, tiles match
// LAYOUT-N128-NEXT: atb: wgmma m64n128k16 #1: A M-major, B N-major, 2 warpgroups, tiles match
// LAYOUT-N128-NEXT: abt: wgmma m64n128k16 #0: A K-major, B K-major, 2 warpgroups, tiles match
// LAYOUT-N128-NEXT: abt: wgmma m64n128k16 #1: A K-major, B K-major, 2 warpgroups, tiles match
// LAYOUT-N128-NEXT: k16: wgmma m64n128k16 #0: A K-major, B N-major, 2 warpgroups, tiles match
// LAYOUT-N128-NEXT: bf16: wgmma m64n128k16 #0: A K-major, B N-major, 2 warpgroups, tiles match
// LAYOUT-N128-NEXT: bf16: wgmma m64n128k16 #1: A K-major, B N-major, 2 warpgroups, tiles match
// LAYOUT-N128-NEXT: batched: wgmma m64n128k16 #0: A K-major, B N-major, 2 warpgroups, tiles match
// LAYOUT-N128-NEXT: batched: wgmma m64n128k16 #1: A K-major, B N-major, 2 warpgroups, tiles match
// And blocks of 128 x 256, B's panel in four 64-column blocks.
// LAYOUT-N256: ab256: wgmma m64n256k16 #0: A K-major, B N-major, 2 warpgroups, tiles match
// LAYOUT-N256-NEXT: ab256: wgmma m64n256k16 #1: A K-major, B N-major, 2 warpgroups, tiles match

// Without sm_90a among its targets, a module is left as it is.
// SM80-LABEL: gpu.module @ab_kernel [#nvvm.target<chip = "sm_80">]
// SM80: nvgpu.mma.sync

// A module for sm_90a alone is rewritten in place. A block of one warpgroup whose 4 warps own 16 rows and
// all 64 columns each computes a K step of 32 as two wgmma.mma_async
// m64n64k16 on the whole panels, between a wgmma.fence and a commit and
// wait; the mma.syncs and their ldmatrix go. Each descriptor is the
// panel slot's shared address >> 4 in bits 0-13 with constant fields: A
// (64x32 f16, K-major) 64-byte swizzle (2 << 62), 512 bytes between groups
// of 8 rows (32 << 32), 16 unused (1 << 16); B (32x64, N-major, read
// transposed: layout row) 128-byte swizzle (1 << 62), 1024 bytes (64 << 32
// and 64 << 16). The second K slice starts 32 bytes along A's rows and 16
// rows (2048 bytes) down B. The panels' writes are made visible to wgmma
// (fence.proxy.async) before every barrier.
// WGMMA-LABEL: gpu.module @ab_kernel [#nvvm.target<chip = "sm_90a">]
// WGMMA: gpu.func @ab_kernel({{.*}}) workgroup(%[[A:.*]] : memref<2x64x32xf16, #gpu.address_space<workgroup>>, %[[B:.*]] : memref<2x32x64xf16, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 32, 4, 1>
// WGMMA: nvgpu.device_async_create_group
// WGMMA: nvgpu.device_async_create_group
// WGMMA-NEXT: nvvm.cp.async.wait.group 0
// WGMMA-NEXT: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// WGMMA-NEXT: gpu.barrier
// WGMMA: scf.for
// WGMMA: %[[PA:.*]] = memref.extract_aligned_pointer_as_index %[[A]]
// WGMMA: %[[PB:.*]] = memref.extract_aligned_pointer_as_index %[[B]]
// WGMMA: nvvm.wgmma.fence.aligned
// WGMMA: %[[DA0:.*]] = arith.ori %{{.*}}, %c-9223371899415756800_i64 : i64
// WGMMA: %[[DB0:.*]] = arith.ori %{{.*}}, %c4611686293309489152_i64 : i64
// WGMMA: %[[ACC:.*]] = nvvm.wgmma.mma_async %[[DA0]], %[[DB0]], %{{.*}}, <m = 64, n = 64, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <row>] : !llvm.struct<({{(f32, )+}}f32)>
// WGMMA: arith.addi %{{.*}}, %c32_i64 : i64
// WGMMA: %[[DA1:.*]] = arith.ori %{{.*}}, %c-9223371899415756800_i64 : i64
// WGMMA: arith.addi %{{.*}}, %c2048_i64 : i64
// WGMMA: %[[DB1:.*]] = arith.ori %{{.*}}, %c4611686293309489152_i64 : i64
// WGMMA: nvvm.wgmma.mma_async %[[DA1]], %[[DB1]], %[[ACC]], <m = 64, n = 64, k = 16>
// WGMMA-NEXT: nvvm.wgmma.commit.group.sync.aligned
// WGMMA-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// WGMMA: nvvm.cp.async.wait.group 0
// WGMMA-NEXT: nvvm.fence.proxy
// WGMMA-NEXT: gpu.barrier
// WGMMA-NEXT: scf.yield
// A^T x B: A's panel is K x M, read M-major (layout col) with 128-byte rows.
// WGMMA-LABEL: gpu.module @atb_kernel
// WGMMA: nvvm.wgmma.mma_async {{.*}} A[<f16>, <one>, <col>], B[<f16>, <one>, <row>]
// WGMMA: nvvm.wgmma.mma_async {{.*}} A[<f16>, <one>, <col>], B[<f16>, <one>, <row>]
// A x B^T: B's panel is N x K, read K-major (layout col).
// WGMMA-LABEL: gpu.module @abt_kernel
// WGMMA: nvvm.wgmma.mma_async {{.*}} A[<f16>, <one>, <row>], B[<f16>, <one>, <col>]
// WGMMA: nvvm.wgmma.mma_async {{.*}} A[<f16>, <one>, <row>], B[<f16>, <one>, <col>]
// K = 16: one K step, one wgmma; A's rows of 32 bytes take the 32-byte
// swizzle (3 << 62), 256 bytes between groups of 8 rows.
// WGMMA-LABEL: gpu.module @k16_kernel
// WGMMA: arith.ori %{{.*}}, %c-4611685949707845632_i64 : i64
// WGMMA: nvvm.wgmma.mma_async
// WGMMA-NOT: nvvm.wgmma.mma_async
// WGMMA-LABEL: gpu.module @bf16_kernel
// WGMMA-COUNT-2: nvvm.wgmma.mma_async {{.*}} A[<bf16>, <one>, <row>], B[<bf16>, <one>, <row>]
// WGMMA-LABEL: gpu.module @batched_kernel
// WGMMA-COUNT-2: nvvm.wgmma.mma_async
// Read as the PTX ISA defines the canonical layouts of the swizzle modes,
// the descriptors address exactly the elements of each K slice in the
// panels as mp-gpu-swizzle-panels lays them out (wgmma_layout.py).
// LAYOUT: ab: wgmma m64n64k16 #0: A K-major, B N-major, 1 warpgroup, tiles match
// LAYOUT-NEXT: ab: wgmma m64n64k16 #1: A K-major, B N-major, 1 warpgroup, tiles match
// LAYOUT-NEXT: atb: wgmma m64n64k16 #0: A M-major, B N-major, 1 warpgroup, tiles match
// LAYOUT-NEXT: atb: wgmma m64n64k16 #1: A M-major, B N-major, 1 warpgroup, tiles match
// LAYOUT-NEXT: abt: wgmma m64n64k16 #0: A K-major, B K-major, 1 warpgroup, tiles match
// LAYOUT-NEXT: abt: wgmma m64n64k16 #1: A K-major, B K-major, 1 warpgroup, tiles match
// LAYOUT-NEXT: k16: wgmma m64n64k16 #0: A K-major, B N-major, 1 warpgroup, tiles match
// LAYOUT-NEXT: bf16: wgmma m64n64k16 #0: A K-major, B N-major, 1 warpgroup, tiles match
// LAYOUT-NEXT: bf16: wgmma m64n64k16 #1: A K-major, B N-major, 1 warpgroup, tiles match
// A batched GEMM (attention's, or one split along K by mp-gpu-split-k): its
// double-buffered panels are 2 x 1 x rows x columns, the unit batch
// dimension after the slot.
// LAYOUT-NEXT: batched: wgmma m64n64k16 #0: A K-major, B N-major, 1 warpgroup, tiles match
// LAYOUT-NEXT: batched: wgmma m64n64k16 #1: A K-major, B N-major, 1 warpgroup, tiles match
// 32 columns per block: B's rows of 64 bytes take the 64-byte swizzle.
// LAYOUT32: ab: wgmma m64n32k16 #0: A K-major, B N-major, 1 warpgroup, tiles match
// LAYOUT32: bf16: wgmma m64n32k16 #1: A K-major, B N-major, 1 warpgroup, tiles match
// LAYOUT32-NEXT: batched: wgmma m64n32k16 #0: A K-major, B N-major, 1 warpgroup, tiles match
// LAYOUT32-NEXT: batched: wgmma m64n32k16 #1: A K-major, B N-major, 1 warpgroup, tiles match
// K steps of 64 (tile-k=64): K-major panels of 128-byte rows take the
// 128-byte swizzle, M- and N-major ones are 64 rows deep; four wgmmas per
// step, each reading the right K slice.
// LAYOUT-K64: ab: wgmma m64n64k16 #0: A K-major, B N-major, 1 warpgroup, tiles match
// LAYOUT-K64-NEXT: ab: wgmma m64n64k16 #1: A K-major, B N-major, 1 warpgroup, tiles match
// LAYOUT-K64-NEXT: ab: wgmma m64n64k16 #2: A K-major, B N-major, 1 warpgroup, tiles match
// LAYOUT-K64-NEXT: ab: wgmma m64n64k16 #3: A K-major, B N-major, 1 warpgroup, tiles match
// LAYOUT-K64-NEXT: atb: wgmma m64n64k16 #0: A M-major, B N-major, 1 warpgroup, tiles match
// LAYOUT-K64: atb: wgmma m64n64k16 #3: A M-major, B N-major, 1 warpgroup, tiles match
// LAYOUT-K64-NEXT: abt: wgmma m64n64k16 #0: A K-major, B K-major, 1 warpgroup, tiles match
// LAYOUT-K64: abt: wgmma m64n64k16 #3: A K-major, B K-major, 1 warpgroup, tiles match
// LAYOUT-K64-NEXT: k16: wgmma m64n64k16 #0: A K-major, B N-major, 1 warpgroup, tiles match
// LAYOUT-K64-NEXT: bf16: wgmma m64n64k16 #0: A K-major, B N-major, 1 warpgroup, tiles match
// LAYOUT-K64: bf16: wgmma m64n64k16 #3: A K-major, B N-major, 1 warpgroup, tiles match
// LAYOUT-K64-NEXT: batched: wgmma m64n64k16 #0: A K-major, B N-major, 1 warpgroup, tiles match
// LAYOUT-K64: batched: wgmma m64n64k16 #3: A K-major, B N-major, 1 warpgroup, tiles match
// LAYOUT-K64-NOT: tiles
// LAYOUT-K64-N128: ab: wgmma m64n128k16 #0: A K-major, B N-major, 2 warpgroups, tiles match
// LAYOUT-K64-N128: ab: wgmma m64n128k16 #3: A K-major, B N-major, 2 warpgroups, tiles match
// LAYOUT-K64-N128-NEXT: atb: wgmma m64n128k16 #0: A M-major, B N-major, 2 warpgroups, tiles match
// LAYOUT-K64-N128: atb: wgmma m64n128k16 #3: A M-major, B N-major, 2 warpgroups, tiles match
// LAYOUT-K64-N128-NEXT: abt: wgmma m64n128k16 #0: A K-major, B K-major, 2 warpgroups, tiles match
// LAYOUT-K64-N128: abt: wgmma m64n128k16 #3: A K-major, B K-major, 2 warpgroups, tiles match
// LAYOUT-K64-N128: batched: wgmma m64n128k16 #3: A K-major, B N-major, 2 warpgroups, tiles match
// LAYOUT-K64-N128-NOT: tiles
// Blocks of 2x2 warps of 32x32 (the default tiles) are not one warpgroup's
// wgmma: they keep mma.sync, and no module gets a variant.
// NOT-WARPGROUP-LABEL: gpu.module @ab_kernel [#nvvm.target<chip = "sm_80">, #nvvm.target<chip = "sm_90a">]
// NOT-WARPGROUP: nvgpu.mma.sync

// in-flight: with three slots whose trips' copies leave the previous
// trip's slot alone (reserve-slot), each K step's wgmma stays in flight
// while the next trip copies and waits: wgmma.wait_group 1 at the end of
// the step (the previous trip's wgmma has completed, so the next trip's
// copies may overwrite its slot) and 0 after the K loop, before the
// accumulators are read.
// IN-FLIGHT-LABEL: gpu.func @ab_k128_kernel
// IN-FLIGHT-SAME: workgroup(%{{.*}} : memref<3x64x32xf16, #gpu.address_space<workgroup>>, %{{.*}} : memref<3x32x64xf16, #gpu.address_space<workgroup>>
// IN-FLIGHT: scf.for
// IN-FLIGHT: nvvm.wgmma.fence.aligned
// IN-FLIGHT-COUNT-2: nvvm.wgmma.mma_async
// IN-FLIGHT-NEXT: nvvm.wgmma.commit.group.sync.aligned
// IN-FLIGHT-NEXT: nvvm.wgmma.wait.group.sync.aligned 1
// IN-FLIGHT: gpu.barrier
// IN-FLIGHT-NEXT: scf.yield
// IN-FLIGHT-NEXT: }
// IN-FLIGHT-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// Two slots (the default stages): the next trip's copies overwrite the
// slot this step's wgmma reads, so it is waited for in its step.
// TWO-SLOTS-LABEL: gpu.func @ab_k128_kernel
// TWO-SLOTS-SAME: workgroup(%{{.*}} : memref<2x64x32xf16, #gpu.address_space<workgroup>>
// TWO-SLOTS: nvvm.wgmma.commit.group.sync.aligned
// TWO-SLOTS-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// TWO-SLOTS-NOT: nvvm.wgmma.wait.group.sync.aligned
