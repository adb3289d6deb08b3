#!/bin/bash
# Runs kernels on the checking interpreter and on a CUDA GPU and compares the buffers they
# write. Usage: scripts/gpu_crosscheck.sh [WARPSAFE] FILE...   (FILE: .cu or IR .json)
# Prints one line per file: both exit codes, both times, and `same`, `close (max rel E)`,
# `DIFF ...` or the GPU's error. Needs python3 and an NVIDIA driver.
set -u
W=${1:-warpsafe}
shift
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for f in "$@"; do
  b=$(basename "$f")
  rm -rf "$work/cpu" "$work/gpu"; mkdir -p "$work/cpu" "$work/gpu"
  t0=$(date +%s%N)
  timeout 60 "$W" run "$f" --backend cpu --out "$work/cpu" --format json >"$work/cpu.json" 2>"$work/cpu.err"; rc1=$?
  t1=$(date +%s%N)
  timeout 60 "$W" run "$f" --backend cuda --out "$work/gpu" --format json >"$work/gpu.json" 2>"$work/gpu.err"; rc2=$?
  t2=$(date +%s%N)
  if [ $rc2 -ne 0 ] && [ $rc2 -ne 1 ]; then
    cmp="GPU-ERROR: $(head -c 200 "$work/gpu.err" | tr '\n' ' ')"
  else
    cmp=$(python3 "$here/compare_buffers.py" "$work/cpu" "$work/gpu" "$work/cpu.json" 2>&1 | tail -1)
  fi
  printf "%-50s cpu_rc=%s gpu_rc=%s cpu_ms=%s gpu_ms=%s %s\n" "$b" "$rc1" "$rc2" \
    "$(( (t1 - t0) / 1000000 ))" "$(( (t2 - t1) / 1000000 ))" "$cmp"
done
