// mp-test-verify (verify_each.py --in-process): IR that does not verify,
// parsed here without the parser's verifier, gets the verifier's error and
// one that names the check; IR that verifies passes through unchanged.
// RUN: not mp-opt %s --split-input-file --mlir-very-unsafe-disable-verifier-on-parsing --verify-each=false --mp-test-verify 2>&1 | FileCheck %s --check-prefix=INVALID
// RUN: not mp-opt %s --split-input-file --mlir-very-unsafe-disable-verifier-on-parsing --verify-each=false --mp-test-verify 2>/dev/null | FileCheck %s --check-prefix=VALID

// INVALID: error: 'func.return' op has 0 operands, but enclosing function (@wrong) returns 1
// INVALID: error: mp-test-verify: the IR does not verify
// INVALID-NOT: mp-test-verify
func.func @wrong(%x: f32) -> f32 {
  func.return
}

// -----

// VALID: func.func @right(%[[X:.*]]: f32) -> f32
// VALID-NEXT: return %[[X]] : f32
func.func @right(%x: f32) -> f32 {
  func.return %x : f32
}
