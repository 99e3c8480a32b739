#!/usr/bin/env bash
#===- scripts/sanitize.sh - Every test on an ASan + UBSan build of mp -----===#
# Usage: scripts/sanitize.sh [--build-only] [BUILD_DIR]
#                                             (default: build-sanitize)
# Builds the whole project with clang-22 and -fsanitize=address,undefined
# (MP_SANITIZE=ON: compiler libraries, mp-opt, the plugin, mp-run, the
# runtime, the unit tests and the fuzz targets) and runs CTest there: the
# gtest unit tests and the lit suite. Any sanitizer report fails the run.
#
# Debian's LLVM and MLIR are not instrumented, which needs two ASan options
# (test/lit.cfg.py and scripts/fuzz.sh set the same):
#   allow_user_poisoning=0  LLVM's BumpPtrAllocator is inlined into our code,
#                           which poisons its slabs; uninstrumented libMLIR
#                           then writes into them without unpoisoning, and
#                           ASan would report a use after poison.
#   detect_leaks=0          MLIR's global registries are never freed. The
#                           runtime's own tests turn leak checks back on.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build_only=0
if [ "${1:-}" = --build-only ]; then build_only=1; shift; fi
build="${1:-$root/build-sanitize}"
"$root/scripts/install-deps.sh"
if ! grep -qs "^MP_SANITIZE:BOOL=ON$" "$build/CMakeCache.txt"; then
  cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DMP_SANITIZE=ON >/dev/null
fi
ninja -C "$build"
[ "$build_only" = 1 ] && exit 0
export ASAN_OPTIONS="allow_user_poisoning=0:detect_leaks=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
ctest --test-dir "$build" --output-on-failure
