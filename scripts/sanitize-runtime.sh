#!/usr/bin/env bash
#===- scripts/sanitize-runtime.sh - Runtime tests under ASan + UBSan -----===#
# Builds the runtime alone (it has no MLIR dependency) with
# -fsanitize=address,undefined and runs its tests; any report fails the run.
# Usage: scripts/sanitize-runtime.sh [BUILD_DIR]   (default: build-sanitize)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$root/build-sanitize}"
if [ ! -f "$build/build.ninja" ]; then
  cmake -G Ninja -S "$root/runtime" -B "$build" -DMP_RUNTIME_SANITIZE=ON \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
fi
ninja -C "$build" >/dev/null
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --test-dir "$build" --output-on-failure
