#!/usr/bin/env bash
#===- scripts/install-deps.sh - Install what mp needs on Debian 12 -------===#
#
# Idempotent: installs only what is missing and prints nothing else when all
# is present. Run as root (or with sudo available).
#
#===----------------------------------------------------------------------===#
set -euo pipefail

LLVM_VERSION=22
PACKAGES=(
  "libmlir-${LLVM_VERSION}-dev" "mlir-${LLVM_VERSION}-tools"
  "llvm-${LLVM_VERSION}-dev" "llvm-${LLVM_VERSION}-tools"
  cmake ninja-build ccache g++ libgtest-dev python3 python3-numpy
  libopenblas-dev zlib1g-dev dataset-fashion-mnist
  openmpi-bin libopenmpi-dev # data-parallel training (mpirun -np N mp-run)
  "libomp-${LLVM_VERSION}-dev" # compiled CPU code on threads (OpenMP)
  "clang-${LLVM_VERSION}" "libclang-rt-${LLVM_VERSION}-dev" # fuzz targets
)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  echo "mp: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  log="$(mktemp)"
  if ! { $SUDO apt-get update -qq && $SUDO apt-get install -y -qq \
         --no-install-recommends "${missing[@]}"; } >"$log" 2>&1; then
    cat "$log" >&2
    echo "mp: error: installing packages failed (log above)" >&2
    exit 1
  fi
  rm -f "$log"
fi

# The CUDA toolkit is optional: without it, GPU code is not assembled by ptxas
# and the lit feature `ptxas` is off.
CUDA_HOME="${CUDA_HOME:-/usr/local/cuda}"
if [ ! -x "$CUDA_HOME/bin/ptxas" ]; then
  echo "mp: note: no CUDA toolkit at $CUDA_HOME; ptxas checks of GPU code are disabled"
fi
