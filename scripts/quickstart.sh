#!/usr/bin/env bash
# Sets up, builds, and runs the quickstart campaign on the embedded local fleet (4 agents on this
# machine in two simulated AZs), then prints the Markdown report. Usage: bash scripts/quickstart.sh
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
BUILD_DIR=${BUILD_DIR:-build}
cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build "$BUILD_DIR" -j"$(nproc)" --target azbench azbench-agent
"$BUILD_DIR/coordinator/azbench" run examples/quickstart.yaml
"$BUILD_DIR/coordinator/azbench" report examples/quickstart.db --format md
