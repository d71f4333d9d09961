#!/bin/sh
# Two ranks under mpirun on this machine (host steps, no GPU needed): rank 0
# writes one report holding both ranks' rows, and a rank that fails ends
# the launch instead of leaving the other waiting.
# Usage: test_mpi_launch.sh GPUBENCH MPIRUN
set -eu
bin=$1 mpirun=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1  # CI runs as root
launch() { timeout 120 "$mpirun" --oversubscribe -np 2 "$bin" "$@"; }

launch reduce --variant cpu --n 2^16 --min-time 0.01 --json "$out/two.json" > "$out/table.txt"
grep -q "rank=1" "$out/table.txt" || { echo "the table does not name rank 1:"; cat "$out/table.txt"; exit 1; }
python3 - "$out/two.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["launch"]["launcher"] == "mpirun" and doc["launch"]["ranks"] == 2, doc.get("launch")
assert len(doc["launch"]["hosts"]) == 2, doc["launch"]
assert [r["device"] for r in doc["results"]] == [0, 1], [r["device"] for r in doc["results"]]
assert all(r["verified"] for r in doc["results"])
PY

# Rank 0 cannot write its output: every rank ends, with rank 0's one line.
rc=0
launch reduce --variant cpu --n 2^16 --min-time 0.01 --json /nonexistent-dir/x.json > /dev/null 2> "$out/err.txt" || rc=$?
[ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] || { echo "expected a failed launch, not exit $rc"; cat "$out/err.txt"; exit 1; }
grep -q "gpubench: error: " "$out/err.txt" || { echo "no error line:"; cat "$out/err.txt"; exit 1; }
echo "ok"
