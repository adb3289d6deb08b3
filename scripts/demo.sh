#!/usr/bin/env bash
# The main job: run every bundled example kernel on the checking interpreter and print a
# summary table (correct kernels must be clean; buggy twins must show their declared bug).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh

cargo build --release --quiet -p warpsafe-cli
./target/release/warpsafe run examples/kernels --check-expect "$@"
