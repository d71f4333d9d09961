#!/usr/bin/env bash
# scripts/results.sh refuses bad arguments with one line and exit 2 before it runs anything or
# makes a folder (no GPU needed). Run by ctest: test_results_sh.sh SCRIPT GPUBENCH_BINARY.
set -u
script=$1 bin=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
touch "$tmp/file"
failed=0
refused() {  # the start of the expected line, then results.sh's arguments
  local want=$1 err rc
  shift
  err=$("$script" "$@" 2>&1 >/dev/null)
  rc=$?
  if [ "$rc" != 2 ] || [[ "$err" != "results.sh: $want"* ]] || [ "$(printf '%s\n' "$err" | wc -l)" != 1 ]; then
    echo "FAIL: results.sh $*: exit $rc, said '$err'; wanted exit 2 and 'results.sh: $want...'"
    failed=1
  fi
}
refused "GPUBENCH_BINARY is empty: only a missing argument means the default" "" "$tmp/out"
refused "OUT_DIR is empty: only a missing argument means the default, results/h200" "$bin" ""
refused "$tmp/file: not a folder" "$bin" "$tmp/file" reduce
refused "unknown group 'nope' (reduce, scan," "$bin" "$tmp/out" nope
refused "OUT_DIR 'cpu' is a group's name" "$bin" cpu
refused "$tmp/missing: no gpubench binary there" "$tmp/missing" "$tmp/out"
[ ! -e "$tmp/out" ] || { echo "FAIL: a refused run made $tmp/out"; failed=1; }
[ "$failed" = 0 ] && echo "results.sh refused every bad argument with one line"
exit "$failed"
