"""No register-tiled (or later) GEMM kernel may spill to local memory.

Compiles each such kernel file to a cubin with the compiler's resource report
(nvcc --resource-usage) and fails on any kernel with a stack frame or spill
stores or loads. Files whose code exists only for sm_90a (guarded by
__CUDA_ARCH_FEAT_SM90_ALL, directly or through sm90_instructions.cuh) are
compiled for sm_90a, as the build does. Needs no GPU. Usage: check_spills.py NVCC SOURCE_DIR ARCH
"""
import glob
import os
import re
import subprocess
import sys
import tempfile

# The ladder from 1D register tiling on (kernels/gemm/gemm05_* and later).
FIRST_REGISTER_TILED = 5


def main(nvcc, source_dir, arch):
    files = sorted(f for f in glob.glob(os.path.join(source_dir, "kernels", "gemm", "gemm[0-9][0-9]_*.cu"))
                   if int(os.path.basename(f)[4:6]) >= FIRST_REGISTER_TILED)
    if not files:
        sys.exit("no register-tiled kernel files found")
    failures, kernels = [], 0
    with tempfile.TemporaryDirectory() as tmp:
        for f in files:
            with open(f) as src:
                text = src.read()
            sm90a = "__CUDA_ARCH_FEAT_SM90_ALL" in text or "sm90_instructions.cuh" in text
            target = "-gencode=arch=compute_90a,code=sm_90a" if sm90a else f"-arch=sm_{arch}"
            out = subprocess.run([nvcc, "-cubin", target, "--resource-usage", "-std=c++17", "-I", source_dir,
                                  f, "-o", os.path.join(tmp, "k.cubin")], capture_output=True, text=True)
            if out.returncode != 0:
                sys.exit(f"{f}: nvcc failed:\n{out.stderr}")
            report = out.stdout + out.stderr
            for name, stack, stores, loads in re.findall(
                    r"Function properties for (\S+)\s+(\d+) bytes stack frame, (\d+) bytes spill stores, "
                    r"(\d+) bytes spill loads", report):
                kernels += 1
                if int(stack) or int(stores) or int(loads):
                    failures.append(f"{os.path.basename(f)}: {name}: {stack} bytes stack, {stores} bytes spill "
                                    f"stores, {loads} bytes spill loads")
    print(f"{kernels} kernels in {len(files)} files checked for sm_{arch} (sm_90a where the file needs it)")
    if kernels == 0:
        sys.exit("the compiler's resource report listed no kernels: check the nvcc flags")
    if failures:
        sys.exit("local memory in register-tiled kernels:\n" + "\n".join(failures))


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    main(*sys.argv[1:])
