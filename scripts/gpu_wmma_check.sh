#!/bin/bash
# Checks warpsafe's model of the warp matrix functions against a GPU's tensor cores: builds
# scripts/gpu_wmma_host.cu with nvcc (NVIDIA's <mma.h>), runs it on the inputs in IN_DIR and
# compares each kernel's output with the interpreter's in EXPECT_DIR (`warpsafe run` of the
# same kernels on the same inputs). Usage: scripts/gpu_wmma_check.sh IN_DIR EXPECT_DIR OUT_DIR
# Needs nvcc, python3 with numpy and an NVIDIA GPU of compute capability 7.0 or newer.
set -eu
in=$1; expect=$2; out=$3
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
nvcc -O2 -arch=native -o "$out/gpu_wmma_host" "$here/gpu_wmma_host.cu"
"$out/gpu_wmma_host" "$in" "$out"
rm -f "$out/gpu_wmma_host"
python3 - "$expect" "$out" <<'PY'
import sys, os, numpy as np
expect, out = sys.argv[1], sys.argv[2]
bad = 0
for f in sorted(os.listdir(expect)):
    dt = np.float16 if "_half_" in f else np.float32
    want = np.fromfile(os.path.join(expect, f), dtype=dt).astype(np.float64)
    got = np.fromfile(os.path.join(out, f), dtype=dt).astype(np.float64)
    err = float(np.max(np.abs(want - got))) if want.size == got.size else float("inf")
    scale = float(np.max(np.abs(want))) or 1.0
    ok = err <= 1e-5 * scale
    bad += not ok
    print(f"{f:40s} max |gpu - interpreter| = {err:.3g} (max |value| {scale:.3g}) {'same' if ok else 'DIFFERENT'}")
sys.exit(1 if bad else 0)
PY
