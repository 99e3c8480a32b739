#!/usr/bin/env bash
#===- scripts/update-docs.sh - Refresh docs/generated from TableGen ------===#
# Usage: scripts/update-docs.sh [BUILD_DIR]   (default: build)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$root/build}"
ninja -C "$build" mp-doc >/dev/null
cp "$build"/docs/generated/*.md "$root/docs/generated/"
echo "updated $(ls "$root"/docs/generated/*.md | wc -l) files in docs/generated"
