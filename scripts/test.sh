#!/usr/bin/env bash
#===- scripts/test.sh - Build mp and run every test -----------------------===#
# Usage: scripts/test.sh [BUILD_DIR]   (default: build)
# Runs the lit suite (check-mp, FileCheck and diagnostics tests) and the gtest
# unit tests through CTest.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$root/build}"
"$root/scripts/build.sh" "$build"
ctest --test-dir "$build" --output-on-failure
