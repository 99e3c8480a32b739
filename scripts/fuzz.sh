#!/usr/bin/env bash
#===- scripts/fuzz.sh - Build and run one libFuzzer target ----------------===#
#
# Usage: scripts/fuzz.sh TARGET SECONDS [BUILD_DIR]
#   TARGET: npy | signature | policy | all (each for SECONDS)
#
# Builds fuzz/TARGET_fuzzer.cpp with clang-22, libFuzzer, ASan and UBSan
# (the runtime's sources, or Policy.cpp, compiled instrumented; MLIR and LLVM
# from Debian, not instrumented), starts from the seed corpus
# fuzz/corpus/TARGET (new inputs go to BUILD_DIR/fuzz/corpus-TARGET, not to
# the repository), runs for SECONDS and prints the executions. A crash
# leaves crash-* in BUILD_DIR/fuzz and fails: turn it into a regression test.
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
target="${1:?usage: fuzz.sh TARGET SECONDS [BUILD_DIR]}"
seconds="${2:?usage: fuzz.sh TARGET SECONDS [BUILD_DIR]}"
build="${3:-$root/build}"
if [ "$target" = all ]; then
  for t in npy signature policy; do "$0" "$t" "$seconds" "$build"; done
  exit 0
fi
"$root/scripts/install-deps.sh"
clang=/usr/lib/llvm-22/bin/clang++
out="$build/fuzz"
mkdir -p "$out" "$out/corpus-$target"
flags=(-std=c++17 -g -O1 -fsanitize=fuzzer,address,undefined
       -fno-sanitize-recover=all -fno-omit-frame-pointer
       -I"$root/runtime/include")
case "$target" in
  npy|signature)
    "$clang" "${flags[@]}" "$root/fuzz/${target}_fuzzer.cpp" \
      "$root/runtime/lib/Tensor.cpp" "$root/runtime/lib/Signature.cpp" \
      "$root/runtime/lib/Npy.cpp" -o "$out/${target}_fuzzer" ;;
  policy)
    [ -f "$build/lib/libMPDialect.a" ] || "$root/scripts/build.sh" "$build"
    "$clang" "${flags[@]}" -fno-exceptions -fno-rtti \
      -I"$root/include" -I"$build/include" -I/usr/lib/llvm-22/include \
      "$root/fuzz/policy_fuzzer.cpp" "$root/lib/Analysis/Policy.cpp" \
      "$build/lib/libMPDialect.a" -L/usr/lib/llvm-22/lib -lMLIR -lLLVM \
      -Wl,-rpath,/usr/lib/llvm-22/lib -o "$out/policy_fuzzer" ;;
  *) echo "fuzz.sh: unknown target '$target' (npy, signature, policy, all)" >&2
     exit 2 ;;
esac
export ASAN_OPTIONS="allow_user_poisoning=0:detect_leaks=0:${ASAN_OPTIONS:-}"
cd "$out"
log="$out/$target.log"
if ! "./${target}_fuzzer" -max_total_time="$seconds" -max_len=4096 \
     -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
     "$out/corpus-$target" "$root/fuzz/corpus/$target" >"$log" 2>&1; then
  tail -40 "$log" >&2
  echo "fuzz.sh: $target failed; the input is in $out (crash-*)" >&2
  exit 1
fi
runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$')
echo "fuzz.sh: $target: $runs executions in ${seconds}s, no crash"
