#!/usr/bin/env bash
# Produces the committed reduction results (results/<gpu>/reduce-*.json and the
# tables beside them) with one build, in one go.
# Usage: scripts/reduce_results.sh [GPUBENCH_BINARY] [OUT_DIR]
set -euo pipefail
bin=${1:-build/gpubench}
out=${2:-results/h200}
mkdir -p "$out"
run() {  # name, then gpubench arguments
  local name=$1; shift
  "$bin" reduce "$@" --json "$out/$name.json" | tee "$out/$name.txt"
}
run reduce-2p22 --n 2^22
run reduce-2p28 --n 2^28
run reduce-2p28-float32 --n 2^28 --dtype float32
run reduce-2p28-max --n 2^28 --op max
sizes=$(seq -s, -f '2^%g' 16 30)
run reduce-sizes --variant reduce6,reduce7,reduce8,reduce9,course4,cub --n "$sizes"
