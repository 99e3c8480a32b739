#!/usr/bin/env bash
#===- scripts/fuzz.sh - Build and run one libFuzzer target ----------------===#
#
# Usage: scripts/fuzz.sh TARGET SECONDS [BUILD_DIR]
#   TARGET: npy | signature | policy | idx | checkpoint | pipeline | all (each
#   for SECONDS, as many at a time as the machine has cores; CI runs `all`)
#   BUILD_DIR: the sanitizer build (default: build-sanitize)
#   MP_FUZZ_MAX_SEED_BYTES: for `pipeline`, leave out seed chunks larger
#   than this (default: none left out; CI: 4096).
#   MP_FUZZ_SEED: libFuzzer's -seed (default: a random one). With a fixed
#   seed and an empty corpus a run is the same sequence of inputs each time,
#   cut where SECONDS end: CI uses one so that it runs what was checked here.
#
# Builds the sanitizer build (scripts/sanitize.sh --build-only: clang-22,
# ASan, UBSan, libFuzzer; fuzz/CMakeLists.txt), starts TARGET from its seed
# corpus, runs it for SECONDS and prints the executions. Seeds: fuzz/corpus/
# TARGET, and for `pipeline` every '// -----' chunk of the .mlir files under
# test/ and examples/ that holds no GPU kernels. New inputs go to BUILD_DIR/fuzz/corpus-TARGET, not to
# the repository. A crash leaves crash-* in BUILD_DIR/fuzz and fails: turn
# it into a regression test.
#
# ASan options: libMLIR and libLLVM are not instrumented, and LLVM's inlined
# BumpPtrAllocator poisons slabs (ASan's user poisoning) that the
# uninstrumented library then writes without unpoisoning them, which ASan
# would report as a use after poison: allow_user_poisoning=0 turns that
# bookkeeping off. detect_leaks=0 because MLIR's global registries are
# never freed.
#
#===----------------------------------------------------------------------===#
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
usage="usage: fuzz.sh TARGET SECONDS [BUILD_DIR]"
target="${1:?$usage}"
seconds="${2:?$usage}"
build="${3:-$root/build-sanitize}"
# The target runs from inside the build: make the path absolute.
case "$build" in /*) ;; *) build="$PWD/$build" ;; esac
targets="npy signature policy idx checkpoint pipeline"
if [ "$target" = all ]; then
  "$root/scripts/sanitize.sh" --build-only "$build" >/dev/null
  # One target per core at a time (a libFuzzer process runs on one), the
  # longest first: pipeline's seeds alone take minutes.
  printf '%s\n' pipeline ${targets/ pipeline/} |
    MP_FUZZ_BUILT=1 xargs -P "$(nproc)" -I{} "$0" {} "$seconds" "$build"
  exit 0
fi
case " $targets " in
  *" $target "*) ;;
  *) echo "fuzz.sh: unknown target '$target' (${targets// /, }, all)" >&2
     exit 2 ;;
esac
if [ -z "${MP_FUZZ_BUILT:-}" ]; then
  "$root/scripts/sanitize.sh" --build-only "$build" >/dev/null
fi
out="$build/fuzz"
seeds=("$out/corpus-$target")
mkdir -p "${seeds[0]}"
max_len=4096
timeout=30
extra=()
if [ "$target" = pipeline ]; then
  max_len=65536
  # The largest seeds (library_gemms.mlir) take up to 30 s through all the
  # pipelines under ASan on 2 busy cores.
  timeout=120
  extra=(-cross_over=0) # byte-level: see LLVMFuzzerCustomMutator
  seeds+=("$out/seeds-pipeline")
  rm -rf "${seeds[1]}" && mkdir -p "${seeds[1]}"
  find "$root/test" "$root/examples" -name '*.mlir' -print0 |
    xargs -0 awk -v dir="${seeds[1]}" -v root="$root/" '
      function open_chunk() { close(path); path = dir "/" name "-" chunk }
      FNR == 1 { name = substr(FILENAME, length(root) + 1)
                 gsub("/", "_", name); chunk = 0; open_chunk() }
      /^\/\/ -----/ { chunk++; open_chunk(); next }
      { print > path }'
  # Not GPU code (kernels, GPU modules): upstream's gpu.launch verifier
  # crashes on mutated launches. The GPU passes' inputs before kernels
  # (linalg, the tiled stage) are kept.
  grep -lE 'gpu\.(launch|module|func|binary)' -r "${seeds[1]}" | xargs -r rm -f
  # Each seed runs through all the passes and pipelines before the first
  # mutation, about 5 minutes for all of them under ASan: a short run
  # (CI's) takes the small ones.
  if [ -n "${MP_FUZZ_MAX_SEED_BYTES:-}" ]; then
    find "${seeds[1]}" -type f -size +"${MP_FUZZ_MAX_SEED_BYTES}"c -delete
  fi
else
  seeds+=("$root/fuzz/corpus/$target")
fi
# A checkpoint's state holds the generator's (about 7 kB).
if [ "$target" = checkpoint ]; then
  max_len=16384
fi
export ASAN_OPTIONS="allow_user_poisoning=0:detect_leaks=0:${ASAN_OPTIONS:-}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
# libFuzzer's link puts libstdc++ before the shared ASan runtime, which must
# come first: preload it.
asan_runtime="$(clang++-22 -print-file-name=libclang_rt.asan-x86_64.so)"
cd "$out"
log="$out/$target.log"
seed=()
if [ -n "${MP_FUZZ_SEED:-}" ]; then seed=(-seed="$MP_FUZZ_SEED"); fi
if ! LD_PRELOAD="$asan_runtime" "./${target}_fuzzer" -max_total_time="$seconds" -max_len="$max_len" \
     -timeout="$timeout" -rss_limit_mb=4096 -print_final_stats=1 "${seed[@]}" "${extra[@]}" "${seeds[@]}" \
     >"$log" 2>&1; then
  tail -40 "$log" >&2
  echo "fuzz.sh: $target failed; the input is in $out (crash-*)" >&2
  exit 1
fi
runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$')
echo "fuzz.sh: $target: $runs executions in ${seconds}s, no crash"
