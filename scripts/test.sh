#!/usr/bin/env bash
#===- scripts/test.sh - Build mp and run every test -----------------------===#
# Usage: scripts/test.sh [BUILD_DIR]   (default: build)
# Runs the lit suite (check-mp: FileCheck, diagnostics, numerics against
# NumPy) and the gtest unit tests through CTest, then the same on a build of
# the whole project under ASan + UBSan (sanitize.sh), then each libFuzzer
# target for a short time (fuzz.sh).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$root/build}"
"$root/scripts/build.sh" "$build"
ctest --test-dir "$build" --output-on-failure
"$root/scripts/sanitize.sh" "$build-sanitize"
MP_FUZZ_SEED="${MP_FUZZ_SEED:-1}" \
  MP_FUZZ_MAX_SEED_BYTES="${MP_FUZZ_MAX_SEED_BYTES:-4096}" \
  "$root/scripts/fuzz.sh" all "${MP_FUZZ_SECONDS:-15}" "$build-sanitize"
