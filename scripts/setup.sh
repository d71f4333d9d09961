#!/usr/bin/env bash
# Installs what gpubench needs to build and test, from Debian's packages, when missing.
# The CUDA toolkit (nvcc, CUB, cuBLAS, cuSPARSE) and cuDNN's and NCCL's headers
# must already be installed.
# Usage: scripts/setup.sh (no arguments)
set -euo pipefail
case $# in
  0) ;;
  *) [[ $1 == -h || $1 == --help ]] && { awk 'NR > 1 && !/^#/ { exit } NR > 1 { print substr($0, 3) }' "$0"; exit 0; }
     echo "setup.sh: takes no arguments (see scripts/setup.sh --help)" >&2; exit 2 ;;
esac
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
if [ ! -x "$nvcc" ]; then
  echo "setup.sh: nvcc not found: install the CUDA toolkit first" >&2
  exit 1
fi
for header in cudnn.h nccl.h; do
  found=""
  for dir in "$(dirname "$(realpath "$nvcc")")/../include" /usr/include /usr/local/include; do
    [ -f "$dir/$header" ] && found=1
  done
  [ -n "$found" ] || { echo "setup.sh: $header not found: install cuDNN's and NCCL's development headers first" >&2; exit 1; }
done
pkgs=(cmake ninja-build g++ libcli11-dev libfmt-dev nlohmann-json3-dev catch2 python3 python3-matplotlib
      libopenblas0-pthread  # OpenBLAS: the gemm `cpu` baseline, loaded at run time
      libopenmpi-dev openmpi-bin)  # MPI: the plugin for runs under mpirun or srun, and its test
missing=()
for p in "${pkgs[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi
