#!/usr/bin/env bash
# Installs what warpsafe's commands need when it is missing. Safe to run repeatedly.
set -euo pipefail

if ! command -v cargo >/dev/null 2>&1; then
    echo "error: cargo not found; install Rust (https://rustup.rs) first" >&2
    exit 2
fi
