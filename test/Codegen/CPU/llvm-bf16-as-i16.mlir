// RUN: mp-opt %s --mp-llvm-bf16-as-i16 | FileCheck %s --implicit-check-not="-> bf16" --implicit-check-not="^bb{{[0-9]+}}(%{{[a-z0-9_]+}}: bf16"

// bf16 (and vectors of bf16) loaded, stored, selected and passed between
// blocks as i16, bitcast where bf16 values meet them; other types stay.
// CHECK-LABEL: llvm.func @copy_masked
// The argument %x is i16 (@calls), bitcast to bf16 at the start; read in
// two other blocks, it is bitcast to i16 in its own and back in each (no
// bf16 value lives across blocks, below).
// CHECK-SAME: (%[[P:.*]]: !llvm.ptr, %[[Q:.*]]: !llvm.ptr, %[[C:.*]]: i1, %[[XA:.*]]: i16)
// CHECK: %[[X:.*]] = llvm.bitcast %[[XA]] : i16 to bf16
// CHECK: %[[XI:.*]] = llvm.bitcast %[[X]] : bf16 to i16
// CHECK: llvm.cond_br %[[C]], ^bb1, ^bb2
// CHECK: ^bb1:
// CHECK:   %[[BITS:.*]] = llvm.load %[[P]] : !llvm.ptr -> i16
// CHECK:   %[[V:.*]] = llvm.bitcast %[[BITS]] : i16 to bf16
// CHECK:   %[[VB:.*]] = llvm.bitcast %[[V]] : bf16 to i16
// CHECK:   llvm.br ^bb3(%[[VB]] : i16)
// CHECK: ^bb2:
// CHECK:   %[[X2:.*]] = llvm.bitcast %[[XI]] : i16 to bf16
// CHECK:   %[[XB:.*]] = llvm.bitcast %[[X2]] : bf16 to i16
// CHECK:   llvm.br ^bb3(%[[XB]] : i16)
// CHECK: ^bb3(%[[M:.*]]: i16):
// CHECK:   %[[X3:.*]] = llvm.bitcast %[[XI]] : i16 to bf16
// CHECK:   %[[MV:.*]] = llvm.bitcast %[[M]] : i16 to bf16
// CHECK:   %[[T:.*]] = llvm.bitcast %[[MV]] : bf16 to i16
// CHECK:   %[[F:.*]] = llvm.bitcast %[[X3]] : bf16 to i16
// CHECK:   %[[S:.*]] = llvm.select %[[C]], %[[T]], %[[F]] : i1, i16
// CHECK:   %[[SV:.*]] = llvm.bitcast %[[S]] : i16 to bf16
// CHECK:   %[[SB:.*]] = llvm.bitcast %[[SV]] : bf16 to i16
// CHECK:   llvm.store %[[SB]], %[[Q]] : i16, !llvm.ptr
// CHECK:   %[[W:.*]] = llvm.load %[[P]] : !llvm.ptr -> vector<4xi16>
// CHECK:   %[[WV:.*]] = llvm.bitcast %[[W]] : vector<4xi16> to vector<4xbf16>
// CHECK:   %[[WB:.*]] = llvm.bitcast %[[WV]] : vector<4xbf16> to vector<4xi16>
// CHECK:   llvm.store %[[WB]], %[[Q]] : vector<4xi16>, !llvm.ptr
// CHECK:   %[[N:.*]] = llvm.load %[[P]] : !llvm.ptr -> f32
// CHECK:   llvm.store %[[N]], %[[Q]] : f32, !llvm.ptr
llvm.func @copy_masked(%p: !llvm.ptr, %q: !llvm.ptr, %c: i1, %x: bf16) {
  llvm.cond_br %c, ^bb1, ^bb2
^bb1:
  %v = llvm.load %p : !llvm.ptr -> bf16
  llvm.br ^bb3(%v : bf16)
^bb2:
  llvm.br ^bb3(%x : bf16)
^bb3(%m: bf16):
  %s = llvm.select %c, %m, %x : i1, bf16
  llvm.store %s, %q : bf16, !llvm.ptr
  %w = llvm.load %p : !llvm.ptr -> vector<4xbf16>
  llvm.store %w, %q : vector<4xbf16>, !llvm.ptr
  %n = llvm.load %p : !llvm.ptr -> f32
  llvm.store %n, %q : f32, !llvm.ptr
  llvm.return
}

// A bf16 value that another block reads (a loaded element stored after a
// branch, a product rounded in one block and stored in the next) crosses
// as i16: at -O0, LLVM's instruction selection keeps such a value in a
// virtual register, soft-promotes that bf16 register through f32 and rounds
// it back with __truncsfbf2, which a module mp loads cannot resolve
// (mp-run --amp bf16 --backend gpu-emulation -O0, 2026-12-01).
// CHECK-LABEL: llvm.func @across_blocks
// CHECK-SAME: (%[[P:.*]]: !llvm.ptr, %[[Q:.*]]: !llvm.ptr, %[[I:.*]]: i16)
// CHECK:   %[[BITS:.*]] = llvm.load %[[P]] : !llvm.ptr -> i16
// CHECK:   %[[V:.*]] = llvm.bitcast %[[BITS]] : i16 to bf16
// CHECK:   %[[VI:.*]] = llvm.bitcast %[[V]] : bf16 to i16
// CHECK:   %[[R:.*]] = llvm.bitcast %[[I]] : i16 to bf16
// CHECK:   %[[RI:.*]] = llvm.bitcast %[[R]] : bf16 to i16
// CHECK:   llvm.br ^bb1
// CHECK: ^bb1:
// CHECK:   %[[R1:.*]] = llvm.bitcast %[[RI]] : i16 to bf16
// CHECK:   %[[V1:.*]] = llvm.bitcast %[[VI]] : i16 to bf16
// CHECK:   %[[VS:.*]] = llvm.bitcast %[[V1]] : bf16 to i16
// CHECK:   llvm.store %[[VS]], %[[Q]] : i16, !llvm.ptr
// CHECK:   %[[E:.*]] = llvm.fpext %[[R1]] : bf16 to f32
// CHECK:   llvm.store %[[E]], %[[Q]] : f32, !llvm.ptr
llvm.func @across_blocks(%p: !llvm.ptr, %q: !llvm.ptr, %i: i16) {
  %v = llvm.load %p : !llvm.ptr -> bf16
  %r = llvm.bitcast %i : i16 to bf16
  llvm.br ^bb1
^bb1:
  llvm.store %v, %q : bf16, !llvm.ptr
  %e = llvm.fpext %r : bf16 to f32
  llvm.store %e, %q : f32, !llvm.ptr
  llvm.return
}

// A function of the module's own that takes or returns bf16 (an outlined
// producer of a GEMM's operand, which the emulation's tile copies call)
// takes and returns i16, and its calls pass and receive i16: at -O0 the x86
// backend passes a bf16 argument or result through f32 as well (__truncsfbf2,
// a random graph with layers, bf16, gpu-emulation -O0, 2026-12-02). A
// declaration keeps its signature.
// CHECK-LABEL: llvm.func @producer
// CHECK-SAME: (%[[A:.*]]: i16) -> i16
// CHECK: %[[AV:.*]] = llvm.bitcast %[[A]] : i16 to bf16
// CHECK: %[[N:.*]] = llvm.fneg %[[AV]] : bf16
// CHECK: %[[NI:.*]] = llvm.bitcast %[[N]] : bf16 to i16
// CHECK: llvm.return %[[NI]] : i16
llvm.func @producer(%a: bf16) -> bf16 {
  %n = llvm.fneg %a : bf16
  llvm.return %n : bf16
}

// CHECK: llvm.func @external(bf16) -> f32
// CHECK-LABEL: llvm.func @calls
// CHECK-SAME: (%[[P:.*]]: !llvm.ptr)
// CHECK: %[[L:.*]] = llvm.load %[[P]] : !llvm.ptr -> i16
// CHECK: %[[LV:.*]] = llvm.bitcast %[[L]] : i16 to bf16
// CHECK: %[[LI:.*]] = llvm.bitcast %[[LV]] : bf16 to i16
// CHECK: %[[R:.*]] = llvm.call @producer(%[[LI]]) : (i16) -> i16
// CHECK: %[[RV:.*]] = llvm.bitcast %[[R]] : i16 to bf16
// CHECK: %[[E:.*]] = llvm.call @external(%[[RV]]) : (bf16) -> f32
// CHECK: llvm.return %[[E]] : f32
llvm.func @external(bf16) -> f32
llvm.func @calls(%p: !llvm.ptr) -> f32 {
  %l = llvm.load %p : !llvm.ptr -> bf16
  %r = llvm.call @producer(%l) : (bf16) -> bf16
  %e = llvm.call @external(%r) : (bf16) -> f32
  llvm.return %e : f32
}
