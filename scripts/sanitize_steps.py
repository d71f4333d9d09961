#!/usr/bin/env python3
"""Runs a config's benchmarks under compute-sanitizer one ladder step at a time, several processes at once.

  sanitize_steps.py CONFIG [--bin build/gpubench] [--out build/sanitize-steps] [--jobs N] [--timeout S]
                           [--tool racecheck] [--steps a,b] [--benchmarks 0-8,10] [--per-size]

A pattern's GPU tests under racecheck can run longer than a machine's time limit, and
compute-sanitizer's --kernel-name filter cannot split them: kernels it leaves uninstrumented
may fault (the cluster steps and cuBLAS TF32 on an H100, results/h100/racecheck-935d46c.txt).
Here every process runs one step (a variant that is not a baseline, as `gpubench list` groups
them), or with --per-size one step at one benchmark of the config, with every kernel
instrumented; gpubench checks each result against its reference. --benchmarks keeps the
config's benchmarks at those indices (from 0, in the config's order) and leaves out the
rest, to split a config between calls. Each run takes one sample
(min_samples 1, min_time 0, warmup 0), whatever the config says. A step runs at the benchmarks
whose variants (the benchmark's, else the defaults', else all) name it or are "all". A step that
cannot take a point of the config (a uint8-only step at uint16 samples) must be left out of that
benchmark's variants: run on its own there, gpubench refuses it, and the script stops before
anything runs (each process's config is checked with `gpubench run --dry-run` first). A limit of
the GPU (bins past shared memory) is found only when the process runs: gpubench's exit 2.

Each process's output goes to DIR/PATTERN-STEP.txt (DIR/PATTERN-STEP-N.txt with --per-size, N
the benchmark's index in the config), ending with its exit status and seconds; its config
beside it, as .json, to run it again by hand. Exit code: 0 when
every process exited 0 (no sanitizer error, every row PASS), 1 otherwise; 2 for a bad argument
or config (gpubench run --dry-run checks the config first), or one that leaves nothing to check.
"""
import argparse
import concurrent.futures
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ONE_SAMPLE = {"min_samples": 1, "min_time": 0, "warmup": 0}


def fail(message):
    print(f"sanitize_steps.py: {message}", file=sys.stderr)
    sys.exit(2)


def steps_of(binary, pattern):
    """The pattern's steps in ladder order: `gpubench list` rows whose group is not baseline."""
    listing = subprocess.run([binary, "list", pattern], capture_output=True, text=True)
    if listing.returncode != 0:
        fail(f"{binary} list {pattern}: {listing.stderr.strip()}")
    rows = [line.split() for line in listing.stdout.splitlines() if line.startswith("  ")]
    if not rows:
        fail(f"{binary} list {pattern} listed no steps: is it gpubench?")
    return [row[0] for row in rows if len(row) > 1 and row[1] != "baseline"]


def names(variants, step):
    """Whether a config's variants ("all", "a,b" or a list) take the step."""
    listed = variants.split(",") if isinstance(variants, str) else variants
    return listed == ["all"] or step in listed


def indices(text, count):
    """The benchmark indices --benchmarks names ("0-8,10"), each below count."""
    chosen = set()
    for part in text.split(","):
        match = re.fullmatch(r"(\d+)(?:-(\d+))?", part, re.ASCII)
        first, last = (int(match[1]), int(match[2] or match[1])) if match else (0, -1)
        if last < first:
            fail(f"--benchmarks {text!r}: a comma-separated list of indices and ranges from 0, e.g. 0-8,10")
        if last >= count:
            fail(f"--benchmarks {text!r}: the config has {count} benchmarks, 0 to {count - 1}")
        chosen.update(range(first, last + 1))
    return chosen


def jobs_of(config, binary, only, chosen, per_size):
    """(name, config) for each process: one step, at every chosen benchmark of its pattern or at one."""
    benchmarks = config["benchmarks"]
    patterns = {p: steps_of(binary, p) for p in dict.fromkeys(b.get("pattern") for b in benchmarks)}
    known = [step for steps in patterns.values() for step in steps]
    unknown = [step for step in only or [] if step not in known]
    if unknown:
        fail(f"not a step of the config's patterns: {', '.join(unknown)}; steps: {', '.join(known)}")
    defaults = {"params": config.get("defaults", {}).get("params", {})}  # variants and measure: set per run
    default_variants = config.get("defaults", {}).get("variants", "all")
    jobs, taken = [], set()
    for pattern, steps in patterns.items():
        for step in steps:
            if only and step not in only:
                continue
            mine = [(i, b) for i, b in enumerate(benchmarks) if i in chosen
                    and b.get("pattern") == pattern and names(b.get("variants", default_variants), step)]
            if not mine:
                continue
            taken.add(step)
            groups = [(f"-{i}", [b]) for i, b in mine] if per_size else [("", [b for _, b in mine])]
            for suffix, group in groups:
                name = f"{pattern}-{step}{suffix}"
                runs = [dict(b, variants=[step], measure=ONE_SAMPLE) for b in group]
                jobs.append((name, {"name": name, "defaults": defaults, "benchmarks": runs}))
    idle = [step for step in only or [] if step not in taken]
    every = len(chosen) == len(benchmarks)
    if idle:
        which = "benchmark of the config" if every else "benchmark --benchmarks keeps"
        fail(f"no {which} runs {', '.join(idle)}: their variants leave it out")
    if not jobs:
        which = "config's benchmarks" if every else "benchmarks --benchmarks keeps"
        fail(f"nothing to check: the {which} run no step of their ladders, only baselines")
    return jobs


def dry_run(binary, path):
    """gpubench's one line refusing the config at `path` (`run --dry-run`), or None when it takes it."""
    check = subprocess.run([binary, "run", path, "--dry-run"], capture_output=True, text=True)
    if check.returncode == 0:
        return None
    return check.stderr.strip() or f"{binary} run {path} --dry-run: exit {check.returncode}"


def write_checked(name, config, binary, workdir):
    """The process's config as a file, checked by dry_run: a step that cannot take one of its
    points (a uint8-only step at uint16 samples) is refused here, before anything runs."""
    path = os.path.join(workdir, f"{name}.json")
    with open(path, "w") as f:
        json.dump(config, f, indent=1)
    refused = dry_run(binary, path)
    if refused:
        fail(f"{name}: {refused}; leave the step out of that benchmark's variants")
    return path


def run_one(name, path, args):
    """Runs one process's config (kept in --out beside its log, to run again by hand)."""
    command = ["compute-sanitizer", "--tool", args.tool, "--error-exitcode", "99", args.bin, "run", path]
    start = time.monotonic()
    with open(os.path.join(args.out, f"{name}.txt"), "w") as log:
        log.write("$ " + " ".join(command) + "\n")
        log.flush()
        # A session of its own: a timeout stops the sanitizer and gpubench under it together.
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        try:
            status = process.wait(timeout=args.timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
            status = "stopped by --timeout"
        seconds = time.monotonic() - start
        log.write(f"exit {status} after {seconds:.0f} s\n")
    return name, status, seconds


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("config", help="a gpubench config (docs/configs.md): the sizes to run every step at")
    parser.add_argument("--bin", default="build/gpubench", help="the gpubench binary (default: build/gpubench)")
    parser.add_argument("--out", default="build/sanitize-steps", help="the folder for the logs (default: build/sanitize-steps)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count(), help="processes at once (default: one per CPU)")
    parser.add_argument("--timeout", type=float, help="seconds before a process is stopped (default: none)")
    parser.add_argument("--tool", default="racecheck", choices=["memcheck", "racecheck", "synccheck", "initcheck"],
                        help="compute-sanitizer's tool (default: racecheck)")
    parser.add_argument("--steps", help="only these steps, comma-separated")
    parser.add_argument("--benchmarks", help="only the config's benchmarks at these indices from 0, e.g. 0-8,10")
    parser.add_argument("--per-size", action="store_true", help="a process per step and benchmark")
    args = parser.parse_args()
    if args.jobs < 1:
        fail(f"--jobs must be at least 1, not {args.jobs}")
    if args.timeout is not None and not args.timeout > 0:
        fail(f"--timeout must be a positive number of seconds, not {args.timeout}")
    if args.steps is not None and not all(args.steps.split(",")):
        fail(f"--steps {args.steps!r}: a comma-separated list of step names, none empty")
    if not (os.path.isfile(args.bin) and os.access(args.bin, os.X_OK)):
        fail(f"{args.bin}: no gpubench binary there; build first or pass --bin")
    if not shutil.which("compute-sanitizer"):
        fail("compute-sanitizer is not on PATH")
    refused = dry_run(args.bin, args.config)
    if refused:
        fail(refused)
    with open(args.config, encoding="utf-8-sig") as f:  # a byte-order mark, as gpubench takes it
        config = json.load(f)
    only = args.steps.split(",") if args.steps else None
    count = len(config["benchmarks"])
    chosen = indices(args.benchmarks, count) if args.benchmarks is not None else set(range(count))
    jobs = jobs_of(config, args.bin, only, chosen, args.per_size)
    with tempfile.TemporaryDirectory() as workdir:
        paths = [(name, write_checked(name, job, args.bin, workdir)) for name, job in jobs]
        try:
            os.makedirs(args.out, exist_ok=True)
        except OSError as e:
            fail(f"--out {args.out}: {e.strerror}")
        if not os.access(args.out, os.W_OK):
            fail(f"--out {args.out}: not writable")
        kept = [(name, shutil.copy(path, os.path.join(args.out, f"{name}.json"))) for name, path in paths]
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            results = list(pool.map(lambda job: run_one(*job, args), kept))
    for name, status, seconds in results:
        print(f"{name}: exit {status} after {seconds:.0f} s")
    clean = sum(status == 0 for _, status, _ in results)
    print(f"{clean} of {len(results)} clean ({args.tool}); logs in {args.out}/")
    return 0 if clean == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
