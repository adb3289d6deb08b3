#!/usr/bin/env bash
# The test command: formatting, lints, then every test of the workspace (unit, integration,
# end-to-end on the bundled examples, doc tests).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh

cargo fmt --all -- --check
cargo clippy --workspace --all-targets --quiet -- -D warnings
cargo test --workspace --doc --quiet
if command -v cargo-nextest >/dev/null 2>&1; then
    cargo nextest run --workspace --no-fail-fast
else
    cargo test --workspace --no-fail-fast
fi
