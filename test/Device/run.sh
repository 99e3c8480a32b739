#!/usr/bin/env bash
#===- test/Device/run.sh - Everything the bundle measures, on the GPU -----===#
# Usage: run.sh BUNDLE RESULTS [STAGE...]
#   STAGE: check | check-gemm | gemm | gemm4096 | profile | reduce | train |
#          train256 | probe
#   (default: check gemm reduce train train256 probe, in order)
# On the GPU machine (no MLIR needed), after test/Device/bundle.py BUNDLE
# here: runs each stage with a time limit (a hang fails that stage, not the
# machine), writes its output to RESULTS/<stage>.txt and prints one line
# per stage with its exit status and seconds. Stages can be run in separate
# calls, so that each fits a limited session on a lent GPU.
set -uo pipefail
if [ $# -lt 2 ]; then
  echo "usage: run.sh BUNDLE RESULTS [check|check-gemm|gemm|gemm4096|profile|reduce|train|train256|probe ...]" >&2
  exit 2
fi
bundle="$(cd "$1" && pwd)" || exit 2
results="$2"
shift 2
mkdir -p "$results" || exit 2
stages=("$@")
[ ${#stages[@]} -gt 0 ] || stages=(check gemm reduce train train256 probe)
for stage in "${stages[@]}"; do
  case "$stage" in
  check | check-gemm | gemm | gemm4096 | profile | reduce | train | train256 | probe) ;;
  *) echo "run.sh: unknown stage '$stage' (check, check-gemm, gemm, gemm4096, profile, reduce, train, train256, probe)" >&2
     exit 2 ;;
  esac
done
python="${PYTHON:-python3}"
{ nvidia-smi -L; nvidia-smi --query-gpu=driver_version --format=csv,noheader; } \
  > "$results/device.txt" 2>&1
status=0
for stage in "${stages[@]}"; do
  case "$stage" in
  check) cmd=("$python" "$bundle/check.py" "$bundle"); limit=540 ;;
  # The cases of the generated GEMMs' newest structure (stages, 64 x 64
  # warps, wgmma in flight, the barrier-less trips under the sanitizers,
  # B fragments paired from K x N and N x K panels) and one training step,
  # for a short session.
  check-gemm) cmd=("$python" "$bundle/check.py" "$bundle" --only
                   'stages|w64|k64|f16_operands|split_k|^transposed_relu-fp16$|^linear-bf16$|^mlp-fp16$')
              limit=300 ;;
  gemm) cmd=("$python" "$bundle/gpu_gemm.py" run "$bundle" --repeat 10); limit=540 ;;
  # The issue's size alone, for a short session.
  gemm4096) cmd=("$python" "$bundle/gpu_gemm.py" run "$bundle" --repeat 10
                 --sizes 4096); limit=240 ;;
  # Nsight Compute's counters of the 4096^3 f16 kernels.
  profile) cmd=("$python" "$bundle/gpu_gemm.py" profile "$bundle"); limit=300 ;;
  # The reduction cases (block reductions, a warp per row), then the
  # softmax benchmark: a warp per row against a thread per row and torch.
  reduce) cmd=(bash -c "'$python' '$bundle/check.py' '$bundle' --only
                        '^(full|rows_cols|many_rows)-' &&
                        '$python' '$bundle/gpu_reduce.py' run '$bundle'")
          limit=240 ;;
  train) cmd=("$python" "$bundle/gpu_train.py" "$bundle"); limit=300 ;;
  train256) cmd=("$python" "$bundle/gpu_train.py" "$bundle" --batch 256); limit=420 ;;
  probe) cmd=(bash -c "'$python' '$bundle/probe_cublaslt.py' &&
                        '$python' '$bundle/probe_managed.py'"); limit=120 ;;
  esac
  start=$SECONDS
  timeout "$limit" "${cmd[@]}" > "$results/$stage.txt" 2>&1
  rc=$?
  [ $rc -eq 0 ] || status=1
  echo "run.sh: $stage: exit $rc in $((SECONDS - start)) s ($results/$stage.txt)$([ $rc -eq 124 ] && echo ", timed out after $limit s")"
done
exit $status
