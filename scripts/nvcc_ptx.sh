#!/bin/bash
# Compiles kernels with NVIDIA's nvcc to PTX, as a real build does, for the PTX road:
#   scripts/nvcc_ptx.sh OUTDIR FILE.cu...
# writes OUTDIR/<path of FILE>.ptx (and .err with nvcc's messages) with
# `nvcc -ptx -O3 -arch=sm_80 -lineinfo`, 16 at a time, and prints FAIL for each file nvcc
# rejects. Needs the CUDA toolkit (run it where one is installed, e.g. the GPU machine);
# then copy each .ptx next to its .cu and compare the roads with scripts/ptx_road_agree.py.
set -u
out=${1:?usage: scripts/nvcc_ptx.sh OUTDIR FILE.cu...}
shift
export PATH=$PATH:/usr/local/cuda/bin
command -v nvcc >/dev/null || { echo "nvcc not found" >&2; exit 2; }
nvcc --version | tail -2
mkdir -p "$out"
printf '%s\n' "$@" | xargs -P 16 -I{} sh -c 'o="$1/$2"; mkdir -p "$(dirname "$o")"; nvcc -ptx -O3 -arch=sm_80 -lineinfo -o "${o%.cu}.ptx" "$2" 2>"${o%.cu}.err" || echo "FAIL $2"' _ "$out" {}
find "$out" -name '*.ptx' | wc -l
