#!/bin/bash
# Checks warpsafe's model of `ldmatrix` and `mma.sync` against a GPU's tensor cores: builds
# scripts/gpu_mma_host.cu with nvcc (NVIDIA's <cuda_fp16.h>), runs it on the inputs in IN_DIR
# and compares each output, bit for bit, with EXPECT_DIR: the PTX ISA layouts computed in
# Python for the kernels of crates/ptx/tests/all/lower_mma.rs, and `warpsafe run` of the PTX road
# (mma_gemm_nvrtc.ptx and its bug twin) for the GEMMs, whose good one must also equal the
# exact product (gemm_reference.bin); scripts/gpu_mma_prepare.py writes both directories.
# Usage: scripts/gpu_mma_check.sh IN_DIR EXPECT_DIR OUT_DIR
# Needs nvcc, python3 and an NVIDIA GPU of compute capability 8.0 or newer.
set -eu
in=$1; expect=$2; out=$3
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
nvcc -O2 -arch=native -o "$out/gpu_mma_host" "$here/gpu_mma_host.cu"
"$out/gpu_mma_host" "$in" "$out"
rm -f "$out/gpu_mma_host"
cp "$out/mma_gemm.bin" "$out/gemm_reference.bin"
python3 - "$expect" "$out" <<'PY'
import sys, os
expect, out = sys.argv[1], sys.argv[2]
bad = 0
for f in sorted(os.listdir(expect)):
    want = open(os.path.join(expect, f), "rb").read()
    got = open(os.path.join(out, f), "rb").read()
    words = [i for i in range(0, min(len(want), len(got)), 4) if want[i:i+4] != got[i:i+4]]
    ok = len(want) == len(got) and not words
    bad += not ok
    print(f"{f:28s} {len(want)//4:5d} words: {'same bits' if ok else f'DIFFERENT in {len(words)} words, first at word {words[0]//4 if words else -1}'}")
sys.exit(1 if bad else 0)
PY
