#!/usr/bin/env bash
#===- scripts/tidy.sh - clang-tidy (MLIR's checks) on changed files -------===#
# Usage: scripts/tidy.sh [BASE]   (default: origin/main if it exists, else HEAD~1)
# Runs clang-tidy-22 with the repository's .clang-tidy on the C++ files that
# differ from BASE, using build/compile_commands.json. Exits non-zero on a
# finding. Installs clang-tidy-22 from Debian's packages when it is missing.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
build="${BUILD_DIR:-$root/build}"
base="${1:-}"
if [ -z "$base" ]; then
  if git rev-parse -q --verify origin/main >/dev/null; then base=origin/main
  else base=HEAD~1; fi
fi
tidy="$(command -v clang-tidy-22 || true)"
if [ -z "$tidy" ]; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get install -y -qq --no-install-recommends clang-tidy-22 >/dev/null
  tidy="$(command -v clang-tidy-22)"
fi
[ -f "$build/compile_commands.json" ] || "$root/scripts/build.sh" "$build"
mapfile -t files < <(git diff --name-only --diff-filter=AMR "$base" -- \
  '*.cpp' | grep -v '^examples/' || true)
if [ ${#files[@]} -eq 0 ]; then
  echo "tidy: no changed C++ files against $base"
  exit 0
fi
echo "tidy: ${#files[@]} changed files against $base"
"$tidy" -p "$build" --quiet --warnings-as-errors='*' "${files[@]}"
