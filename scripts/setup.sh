#!/usr/bin/env bash
# Installs what warpsafe's commands need when it is missing. Safe to run repeatedly.
#   - z3 (the SMT solver of `warpsafe verify`) from Debian's package `z3`;
#   - cvc5 (the optional second solver: `--solver cvc5`, `--second-opinion`) from Debian's
#     package `cvc5`, unless $WARPSAFE_CVC5 names one; not fatal when it cannot be installed;
#   - clang (the C++ front end that reads CUDA C++ files) from Debian's package `clang-14`,
#     unless $WARPSAFE_CLANG names one or a clang 14 to 19 is on PATH;
#   - NVRTC (NVIDIA's runtime CUDA compiler) from the PyPI wheel `nvidia-cuda-nvrtc`;
#   - Chromium (the headless browser the `--html` report tests open pages in) from Debian's
#     package `chromium`, unless $WARPSAFE_CHROMIUM names one or one is on PATH.
set -euo pipefail

if ! command -v cargo >/dev/null 2>&1; then
    echo "error: cargo not found; install Rust (https://rustup.rs) first" >&2
    exit 2
fi

as_root() {
    if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}

if ! command -v z3 >/dev/null 2>&1; then
    echo "setup: installing z3 (Debian package z3)" >&2
    as_root apt-get update -qq
    as_root apt-get install -y -qq z3 >/dev/null
    command -v z3 >/dev/null 2>&1 || { echo "error: z3 still not found after installing it" >&2; exit 2; }
fi

if [ -z "${WARPSAFE_CVC5:-}" ] && ! command -v cvc5 >/dev/null 2>&1; then
    echo "setup: installing cvc5 (Debian package cvc5; optional)" >&2
    if ! { as_root apt-get update -qq && as_root apt-get install -y -qq cvc5 >/dev/null; } \
        || ! command -v cvc5 >/dev/null 2>&1; then
        echo "setup: warning: cvc5 could not be installed; --solver cvc5 and --second-opinion will not run" >&2
    fi
fi

clang_present() {
    [ -n "${WARPSAFE_CLANG:-}" ] && return 0
    for c in clang-14 clang-15 clang-16 clang-17 clang-18 clang-19 clang; do
        command -v "$c" >/dev/null 2>&1 && return 0
    done
    return 1
}

if ! clang_present; then
    echo "setup: installing clang (Debian package clang-14)" >&2
    as_root apt-get update -qq
    as_root apt-get install -y -qq clang-14 >/dev/null
    clang_present || { echo "error: clang still not found after installing it" >&2; exit 2; }
fi

nvrtc_present() {
    python3 - <<'PY' 2>/dev/null
import os, site, sys, sysconfig
dirs = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"], site.getusersitepackages()}
dirs.update(getattr(site, "getsitepackages", lambda: [])())
sys.exit(0 if any(os.path.exists(os.path.join(d, "nvidia/cu13/lib/libnvrtc.so.13")) for d in dirs) else 1)
PY
}

if [ -z "${WARPSAFE_NVRTC:-}" ] && ! nvrtc_present; then
    echo "setup: installing NVRTC (pip package nvidia-cuda-nvrtc)" >&2
    if ! command -v python3 >/dev/null 2>&1 || ! python3 -m pip --version >/dev/null 2>&1; then
        as_root apt-get update -qq
        as_root apt-get install -y -qq python3 python3-pip >/dev/null
    fi
    python3 -m pip install --quiet --disable-pip-version-check nvidia-cuda-nvrtc \
        || python3 -m pip install --quiet --disable-pip-version-check --break-system-packages nvidia-cuda-nvrtc
    nvrtc_present || { echo "error: NVRTC still not found after installing it" >&2; exit 2; }
fi

chromium_present() {
    [ -n "${WARPSAFE_CHROMIUM:-}" ] && return 0
    for c in chromium chromium-browser google-chrome; do
        command -v "$c" >/dev/null 2>&1 && return 0
    done
    return 1
}

if ! chromium_present; then
    echo "setup: installing Chromium (Debian package chromium)" >&2
    as_root apt-get update -qq
    as_root apt-get install -y -qq chromium >/dev/null
    chromium_present || { echo "error: chromium still not found after installing it" >&2; exit 2; }
fi
