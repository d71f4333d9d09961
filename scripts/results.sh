#!/usr/bin/env bash
# Produces the committed results (results/<gpu>/*.json and the tables beside
# them) with one build: every ladder at its sizes, the size sweeps, the
# configs, and the CI gate's baseline with two back-to-back runs compared.
# Usage: scripts/results.sh [GPUBENCH_BINARY] [OUT_DIR] [GROUP...]
#   GROUP: reduce, scan, gemm, histogram, conv2d, stencil3d, map, transfer, ci, cpu, configs, ladders, energy, collective
#   (default: all but ladders, energy and collective, in that order; a device call may not hold them all;
#   ladders is configs/ladders.json alone; energy the reduce and gemm ladders with --energy;
#   collective needs two GPUs or more).
#   Defaults: the repository's build/gpubench and results/h200; it may run from any folder.
# The cudnn rows need libcudnn.so.9 on LD_LIBRARY_PATH (else: unavailable).
set -euo pipefail
all_groups="reduce scan gemm histogram conv2d stencil3d map transfer ci cpu configs ladders energy collective"
fail() { echo "results.sh: $*" >&2; exit 2; }
case ${1:-} in -h | --help) awk 'NR > 1 && !/^#/ { exit } NR > 1 { print substr($0, 3) }' "$0"; exit 0 ;; esac
[ $# -lt 1 ] || [ -n "$1" ] || fail "GPUBENCH_BINARY is empty: only a missing argument means the default"
[ $# -lt 2 ] || [ -n "$2" ] || fail "OUT_DIR is empty: only a missing argument means the default, results/h200"
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# Paths as given, from the caller's folder; the script then works from the
# repository's (configs/, tests/data/).
bin=$(realpath -m -- "${1:-$root/build/gpubench}")
out=$(realpath -m -- "${2:-$root/results/h200}")
shift $(( $# < 2 ? $# : 2 ))
groups=${*:-reduce scan gemm histogram conv2d stencil3d map transfer ci cpu configs}
[ -f "$bin" ] && [ -x "$bin" ] || fail "$bin: no gpubench binary there; build first, or name it first"
for group in $groups; do  # all checked before any runs
  [[ " $all_groups " == *" $group "* ]] || fail "unknown group '$group' (${all_groups// /, })"
done
for group in $all_groups; do  # results.sh BIN cpu: a group where the folder goes
  [ "$(basename "$out")" != "$group" ] || [ -d "$out" ] ||
    fail "OUT_DIR '$group' is a group's name: give the binary, then the folder, then the groups"
done
cd "$root"
[ ! -e "$out" ] || [ -d "$out" ] || fail "$out: not a folder"
mkdir -p "$out" 2>/dev/null || fail "$out: cannot make the folder"
previous=""  # the ci group's copy of the committed baseline
trap 'rm -f "$out"/.*.partial ${previous:+"$previous"}' EXIT
run() {  # name, then gpubench arguments
  local name=$1; shift
  echo "== $name: gpubench $*" >&2
  # The table replaces the committed one only when gpubench wrote the JSON
  # beside it (exit 0, or 1 with a FAIL row): a run that ends in an error
  # leaves both as they were. Any exit but 0 then stops the script (set -e).
  local status=0
  "$bin" "$@" --json "$out/$name.json" | tee "$out/.$name.txt.partial" || status=$?
  if [ "$status" -gt 1 ]; then return "$status"; fi
  mv "$out/.$name.txt.partial" "$out/$name.txt"
  # A size sweep's JSON holds every sample of hundreds of rows: stored as
  # .json.xz (scripts/plot.py reads it; xz -dk gives the JSON back).
  case $name in sweep-*) xz -9 -f "$out/$name.json" ;; esac
  return "$status"
}
sizes=$(seq -s, -f '2^%g' 16 30)
for group in $groups; do
  case $group in
    reduce)
      run reduce-2p22 reduce --n 2^22
      run reduce-2p28 reduce --n 2^28
      run reduce-2p28-float32 reduce --n 2^28 --dtype float32
      run reduce-2p28-max reduce --n 2^28 --op max
      run reduce-sizes reduce --variant reduce6,reduce7,reduce8,reduce9,course4,cub --n "$sizes"
      run reduce-2p22-blocks reduce --variant reduce8,reduce9,cub --n 2^22 --block 64,128,256,512,1024 ;;
    scan)
      run scan-2p28 scan --n 2^28
      run scan-2p28-float32 scan --n 2^28 --dtype float32
      run scan-sizes scan --variant decoupled_lookback,cub --n 2^24,2^30
      run scan-8byte scan --variant decoupled_lookback,cub --n 2^24,2^28,2^30 --dtype float64,int64 --kind inclusive,exclusive
      run scan-past-2p31 scan --variant single_pass_chained,decoupled_lookback,cub --n 2147487747
      run sweep-scan run configs/sweep-scan.json ;;
    gemm)
      run gemm-4096 gemm
      run gemm-8192 gemm --m 8192 --n 8192 --k 8192
      run sweep-gemm run configs/sweep-gemm.json ;;
    histogram)
      run histogram-u8-256 histogram --n 2^28 --bins 256 --sample uint8 --entropy uniform,skewed,constant
      run histogram-i32 histogram --n 2^28 --bins 1024,65536 --sample int32
      run histogram-f32 histogram --n 2^28 --bins 1024 --sample float32 --entropy uniform,constant
      run histogram-past-2p31 histogram --variant vectorized,per_lane,multipass,byte_values,cub --n 2147483665
      run sweep-histogram run configs/sweep-histogram.json ;;
    conv2d)
      device_steps=basic,constant_mask,tiled_input,tiled_cached_halo,register_blocked,vectorized,register_tiled,loads_in_flight,tma_ring,rows_once
      run conv2d-8192 conv2d --mask 3,5,7,9,15
      run conv2d-8192-float64 conv2d --mask 3,15 --dtype float64 --variant "$device_steps,cudnn"
      run conv2d-past-2p31 conv2d --width 65536 --height 32769 --mask 3  # cudnn: unavailable past 2^31 - 1 pixels
      run sweep-conv2d run configs/sweep-conv2d.json ;;
    stencil3d)
      run stencil3d-512 stencil3d --dtype float32,float64
      run stencil3d-past-2p31 stencil3d --size 1291  # cusparse: unavailable (its matrix)
      run sweep-stencil3d run configs/sweep-stencil3d.json ;;
    map)
      run map map --op vecadd,saxpy --dtype float32,float64
      run map-grayscale map --op grayscale
      run map-past-2p31 map --op vecadd --n 2147483655
      run sweep-map run configs/sweep-map.json ;;
    transfer)
      run transfer transfer
      run transfer-streams transfer --variant streams,graph,bidirectional --streams 1,2,4,8,16
      run sweep-transfer run configs/sweep-transfer.json ;;
    ci)
      previous=$(mktemp)  # the committed CI baseline, to compare the new one with
      [ -f "$out/ci.json" ] && cp "$out/ci.json" "$previous"
      start=$(date +%s.%N)
      run ci run configs/ci.json
      awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "gpubench run configs/ci.json: %.1f s wall\n", e - s }' \
        | tee "$out/ci-timed-wall.txt"
      run ci-2 run configs/ci.json
      # Every comparison runs, whatever the one before it found; each file
      # ends with compare's exit status. The previous baseline may hold rows
      # the config has dropped since: they are listed, not failed.
      gate() {  # output name, then compare's arguments
        local name=$1; shift
        local status=0
        "$bin" compare "$@" > "$out/$name.txt" 2>&1 || status=$?
        echo "gpubench compare exit status: $status" >> "$out/$name.txt"
        cat "$out/$name.txt"
      }
      # Copies over PCIe move by about 5% between processes (README, "the gate"): transfer's rows get 10%.
      gate ci-compare "$out/ci.json" "$out/ci-2.json" --threshold transfer=10% --json "$out/ci-compare.json"
      [ -s "$previous" ] && gate ci-compare-prev "$previous" "$out/ci.json" --threshold transfer=10% --allow-missing
      gate ci-compare-v1 tests/data/v1/ci.json "$out/ci.json" --allow-missing  # a version 1 baseline still gates (it has cub at 2^24, dropped since)
      rm -f "$previous" ;;
    cpu)
      run reduce-cpu reduce --variant cpu --n 2^22,2^28
      run reduce-cpu-2 reduce --variant cpu --n 2^22,2^28 ;;
    configs)
      for config in harris-2007 ladders sweep-reduce; do run "$config" run "configs/$config.json"; done ;;
    ladders) run ladders run configs/ladders.json ;;  # the README's summary alone
    collective)  # two GPUs or more (an OUT_DIR of its own): the all-reduce ladder and the CI gate on every GPU
      run collective run configs/collective.json
      run ci-devices-all run configs/ci.json --devices all ;;
    energy)
      run reduce-energy reduce --n 2^28 --energy
      run gemm-energy gemm --energy ;;
  esac
done
