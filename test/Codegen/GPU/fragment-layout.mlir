// The per-lane code of mp-gpu-vector-to-mma for one warp and one m16n8k16
// tile, evaluated for all 32 lanes (mp-test-fragment-layout follows every
// element of A, B, C and D to the buffer element it is loaded from or stored
// to: A and B through ldmatrix from the block's staged panels, which here
// cover the whole matrices, C through the K loop that keeps it in registers)
// against the PTX ISA's fragment tables (Inputs/fragment_table.py, written
// from the document): f16 and bf16, and B read transposed (A x B^T).
// RUN: mp-opt %s --mp-gpu-tile-contractions='tile-m=16 tile-n=8 warp-m=16 warp-n=8' --mp-gpu-map-forall-to-launch --mp-gpu-vector-to-mma --mp-test-fragment-layout -o /dev/null | %python %S/Inputs/fragment_table.py | FileCheck %s
// RUN: sed 's/xf16/xbf16/g' %s | mp-opt --mp-gpu-tile-contractions='tile-m=16 tile-n=8 warp-m=16 warp-n=8' --mp-gpu-map-forall-to-launch --mp-gpu-vector-to-mma --mp-test-fragment-layout -o /dev/null | %python %S/Inputs/fragment_table.py | FileCheck %s
// RUN: mp-opt %S/Inputs/fragment-abt.mlir --mp-gpu-tile-contractions='tile-m=16 tile-n=8 warp-m=16 warp-n=8' --mp-gpu-map-forall-to-launch --mp-gpu-vector-to-mma --mp-test-fragment-layout -o /dev/null | %python %S/Inputs/fragment_table.py --b-transposed | FileCheck %s
// Warp 0 of the default tiles: 16 mma.sync per K step, each operand the
// table moved to its tile (K chains of C included); and A read transposed
// (stored K x M), whose ldmatrix.trans x4 upstream orders as if A were
// M x K (mp-gpu-vector-to-mma swaps its middle matrices).
// RUN: mp-opt %S/Inputs/fragment-tiles.mlir --mp-gpu-tile-contractions=stages=1 --mp-gpu-map-forall-to-launch --mp-gpu-vector-to-mma --mp-test-fragment-layout -o /dev/null | %python %S/Inputs/fragment_table.py | FileCheck %s --check-prefix=TILES
// RUN: sed 's/xf16/xbf16/g' %S/Inputs/fragment-tiles.mlir | mp-opt --mp-gpu-tile-contractions=stages=1 --mp-gpu-map-forall-to-launch --mp-gpu-vector-to-mma --mp-test-fragment-layout -o /dev/null | %python %S/Inputs/fragment_table.py | FileCheck %s --check-prefix=TILES
// RUN: mp-opt %S/Inputs/fragment-atb.mlir --mp-gpu-tile-contractions=stages=1 --mp-gpu-map-forall-to-launch --mp-gpu-vector-to-mma --mp-test-fragment-layout -o /dev/null | %python %S/Inputs/fragment_table.py --a-transposed | FileCheck %s --check-prefix=ATB
// RUN: sed 's/xf16/xbf16/g' %S/Inputs/fragment-atb.mlir | mp-opt --mp-gpu-tile-contractions=stages=1 --mp-gpu-map-forall-to-launch --mp-gpu-vector-to-mma --mp-test-fragment-layout -o /dev/null | %python %S/Inputs/fragment_table.py --a-transposed | FileCheck %s --check-prefix=ATB
// The same after mp-gpu-pair-ldmatrix, whose loads of 4 tiles give two B
// fragments each (lanes 16-31 the second one's addresses): B stored K x N
// (.trans) and N x K (A x B^T on the default tiles).
// RUN: mp-opt %S/Inputs/fragment-tiles.mlir --mp-gpu-tile-contractions=stages=1 --mp-gpu-map-forall-to-launch --mp-gpu-vector-to-mma --mp-gpu-pair-ldmatrix --mp-test-fragment-layout -o /dev/null | %python %S/Inputs/fragment_table.py | FileCheck %s --check-prefix=TILES
// RUN: sed 's/xf16/xbf16/g' %S/Inputs/fragment-tiles.mlir | mp-opt --mp-gpu-tile-contractions=stages=1 --mp-gpu-map-forall-to-launch --mp-gpu-vector-to-mma --mp-gpu-pair-ldmatrix --mp-test-fragment-layout -o /dev/null | %python %S/Inputs/fragment_table.py | FileCheck %s --check-prefix=TILES
// RUN: mp-opt %S/Inputs/fragment-atb.mlir --mp-gpu-tile-contractions=stages=1 --mp-gpu-map-forall-to-launch --mp-gpu-vector-to-mma --mp-gpu-pair-ldmatrix --mp-test-fragment-layout -o /dev/null | %python %S/Inputs/fragment_table.py --a-transposed | FileCheck %s --check-prefix=ATB
// RUN: mp-opt %S/Inputs/fragment-abt-tiles.mlir --mp-gpu-tile-contractions=stages=1 --mp-gpu-map-forall-to-launch --mp-gpu-vector-to-mma --mp-gpu-pair-ldmatrix --mp-test-fragment-layout -o /dev/null | %python %S/Inputs/fragment_table.py --b-transposed | FileCheck %s --check-prefix=TILES
// The table itself is not vacuous: the transposed case read as if B were
// K x N mismatches on every lane.
// RUN: mp-opt %S/Inputs/fragment-abt.mlir --mp-gpu-tile-contractions='tile-m=16 tile-n=8 warp-m=16 warp-n=8' --mp-gpu-map-forall-to-launch --mp-gpu-vector-to-mma --mp-test-fragment-layout -o /dev/null | not %python %S/Inputs/fragment_table.py | FileCheck %s --check-prefix=WRONG

// CHECK: mma 0 A: 32 lanes match, 0 differ
// CHECK: mma 0 B: 32 lanes match, 0 differ
// CHECK: mma 0 C: 32 lanes match, 0 differ
// CHECK: mma 0 D: 32 lanes match, 0 differ
// CHECK: 1 mma, 0 mismatches
// TILES: mma 15 D: 32 lanes match, 0 differ
// TILES: 16 mma, 0 mismatches
// ATB: mma 15 A: 32 lanes match, 0 differ
// ATB: 16 mma, 0 mismatches
// WRONG: mma 0 B: 0 lanes match, 32 differ
// WRONG: 1 mma, 32 mismatches
func.func @mm(%a: memref<16x16xf16>, %b: memref<16x8xf16>, %c: memref<16x8xf32>) {
  linalg.matmul ins(%a, %b : memref<16x16xf16>, memref<16x8xf16>) outs(%c : memref<16x8xf32>)
  return
}
