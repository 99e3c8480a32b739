#!/usr/bin/env bash
#===- scripts/run-example.sh - The main job: AMP on an example graph -----===#
# Usage: scripts/run-example.sh [GRAPH.mlir] [POLICY]
# Builds mp, runs mp-amp-pipeline on the example training graph (an MLP with
# a softmax cross-entropy loss and its backward pass), prints the summary, the
# mixed-precision IR's contractions and writes the report and DOT view.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="$root/build"
graph="${1:-$root/examples/mlp_grad.mlir}"
policy="${2:-fp16}"
out="$build/example"
"$root/scripts/build.sh" "$build" >/dev/null
mkdir -p "$out"
"$build/bin/mp-opt" "$graph" \
  --pass-pipeline="builtin.module(mp-amp-pipeline{policy=$policy summary=true report=$out/report.json dot=$out/graph.dot})" \
  -o "$out/mixed.mlir"
echo
echo "contractions in the mixed-precision graph:"
grep -E "linalg\.(matmul|batch_matmul|conv)" "$out/mixed.mlir" | sed -E 's/^ +/  /' | cut -c1-150
echo
echo "wrote $out/mixed.mlir, $out/report.json (every decision with its reason), $out/graph.dot"
