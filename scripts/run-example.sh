#!/usr/bin/env bash
#===- scripts/run-example.sh - The main job: AMP on an example graph -----===#
# Usage: scripts/run-example.sh [GRAPH.mlir] [POLICY]
#        (EPOCHS=N for longer training, default 2)
# Builds mp, runs mp-amp-pipeline on the example training graph (an MLP with
# a softmax cross-entropy loss and its backward pass), prints the summary, the
# mixed-precision IR's contractions and writes the report and DOT view;
# compiles the fp32 and mixed graphs (for the GPU if there is one, else the
# CPU: mp-run's --backend auto), runs both on the same random inputs and prints the error of the mixed outputs against fp32; then trains
# the graph on Fashion-MNIST in fp32, fp16 (dynamic loss scaling) and bf16
# from the same initial weights and data order and prints the accuracies.
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
echo
echo "running (mp-run --backend auto: the GPU if there is one, else the CPU): $policy against fp32 on the same random inputs"
entry="$(sed -n 's/^func.func @\([A-Za-z0-9_]*\).*/\1/p' "$graph" | head -n 1)"
"$build/bin/mp-run" "$graph" --entry "$entry" --amp="$policy" --random-inputs \
  --seed 1 --compare-fp32 --repeat 5 --save-outputs "$out/outputs"

epochs="${EPOCHS:-2}"
echo
echo "training on Fashion-MNIST: Adam (lr 1e-3), $epochs epochs, seed 1, same data order"
summary=()
for amp in none fp16 bf16; do
  line="$("$build/bin/mp-run" --train "$graph" --amp="$amp" --optimizer adam \
          --lr 1e-3 --epochs "$epochs" --seed 1 --log "$out/train-$amp.csv")"
  echo "$line"
  summary+=("$line")
done
acc() { sed -n 's/.*test accuracy \([0-9.]*\)%.*/\1/p' <<<"$1"; }
echo
awk -v a="$(acc "${summary[0]}")" -v b="$(acc "${summary[1]}")" -v c="$(acc "${summary[2]}")" \
  'BEGIN { printf "test accuracy: fp32 %.2f%%, fp16 %.2f%% (%+.2f pp), bf16 %.2f%% (%+.2f pp)\n", a, b, b - a, c, c - a }'
echo "loss, scale and skipped steps per step: $out/train-{none,fp16,bf16}.csv"
