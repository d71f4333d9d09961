#!/usr/bin/env python3
"""Pictures from gpubench results (docs/json-schema.md).

  plot.py ladder  RESULTS.json    [--out DIR]   one bar chart per parameter set
  plot.py sweep   RESULTS.json    [--out DIR]   bandwidth against size, per variant
  plot.py compare COMPARISON.json [--out DIR]   change per row, from `gpubench compare --json`

Each chart is written as PNG and SVG into DIR (default: beside the input),
named after the input file. Needs matplotlib (Debian: python3-matplotlib).
"""
import argparse
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

plt.rcParams["svg.fonttype"] = "none"  # keep text as text in SVG

LADDER_COLOURS = {"slides": "#4c72b0", "modern": "#55a868", "course": "#dd8452", "single-pass": "#55a868",
                  "baseline": "#8c8c8c"}
VERDICT_COLOURS = {"faster": "#55a868", "slower": "#c44e52", "same": "#8c8c8c", "unclear": "#ccb974",
                   "FAIL": "#000000"}


def load(path, kind):
    with open(path) as f:
        doc = json.load(f)
    versions = (1, 2) if kind == "comparison" else (1,)  # comparisons: 2 renamed the throughput fields
    if doc.get("schema_version") not in versions:
        sys.exit(f"{path}: schema_version {doc.get('schema_version')!r} is not one this script reads")
    if kind == "comparison" and doc.get("kind") != "comparison":
        sys.exit(f"{path}: not a comparison (write one with gpubench compare --json)")
    if kind == "results" and "results" not in doc:
        sys.exit(f"{path}: no results")
    return doc


def size_label(n):
    exp = n.bit_length() - 1
    return f"2^{exp}" if n == 1 << exp else str(n)


def params_label(p):
    if "m" in p:
        return f"{p['m']}x{p['n']}x{p['k']}"
    if "kind" in p:  # scan
        return f"n={size_label(p['n'])} {p['dtype']} {p['kind']}"
    return f"n={size_label(p['n'])} {p['dtype']} {p['op']} block={p['block']}"


def group_by_params(results):
    groups = {}
    for r in results:
        groups.setdefault((json.dumps(r["params"], sort_keys=True), r.get("l2", "flushed")), []).append(r)
    return groups


def metric(rows):
    """(value of a result, axis label, unit): TFLOP/s for arithmetic-bound patterns, else GB/s."""
    if rows[0].get("gflops") is not None:
        return (lambda r: r["gflops"] / 1000), "TFLOP/s (2mnk / median time)", "TFLOP/s"
    return (lambda r: r["gbps"]), "GB/s (bytes that must move / median time)", "GB/s"


def ceilings(ax, device, unit="GB/s"):
    if not device:
        return
    if unit == "TFLOP/s":
        if device.get("fp32_peak_gflops"):
            ax.axhline(device["fp32_peak_gflops"] / 1000, color="#c44e52", linestyle="--", linewidth=1,
                       label=f"FP32 CUDA-core peak {device['fp32_peak_gflops'] / 1000:.1f} TFLOP/s")
        return
    ax.axhline(device["theoretical_gbps"], color="#c44e52", linestyle="--", linewidth=1,
               label=f"theoretical {device['theoretical_gbps']:.0f} GB/s")
    ax.axhline(device["copy_gbps"], color="#c44e52", linestyle=":", linewidth=1,
               label=f"measured copy {device['copy_gbps']:.0f} GB/s")


def ladder_figure(rows, device):
    """One bar per step, library baseline and ceilings as lines, step speedups on the bars."""
    fig, ax = plt.subplots(figsize=(max(6, 0.7 * len(rows) + 2), 5))
    value, axis_label, unit = metric(rows)
    names = [r["variant"] for r in rows]
    heights = [value(r) if r["verified"] else 0 for r in rows]
    bars = ax.bar(names, heights, color=[LADDER_COLOURS.get(r["ladder"], "#333333") for r in rows])
    previous = {}
    for bar, r in zip(bars, rows):
        chain = {"modern": "slides", "tensor-core": "cuda-core"}.get(r["ladder"], r["ladder"])
        label = "FAIL" if not r["verified"] else ""
        if r["verified"] and chain in previous and r["ladder"] != "baseline":
            label = f"{previous[chain]['median_ms'] / r['median_ms']:.2f}x"
        if r["verified"]:
            previous[chain] = r
        ax.annotate(label, (bar.get_x() + bar.get_width() / 2, bar.get_height()), ha="center", va="bottom",
                    fontsize=8)
    for r in rows:
        if r["ladder"] == "baseline" and r["where"] == "device" and r["verified"]:
            ax.axhline(value(r), color="#8c8c8c", linestyle="-.", linewidth=1,
                       label=f"{r['variant']} {value(r):.0f} {unit}")
    ceilings(ax, device, unit)
    gpu = device["name"] if device else "host"
    ax.set_title(f"{rows[0]['pattern']} ladder, {params_label(rows[0]['params'])}, {gpu}")
    ax.set_xlabel("step (label: speedup over the previous step of its ladder)")
    ax.set_ylabel(axis_label)
    ax.tick_params(axis="x", labelrotation=45)
    ax.legend(fontsize=8, loc="upper left")
    fig.tight_layout()
    return fig


def sweep_figure(results, device, label):
    """Throughput against size (log scale), one line per variant."""
    fig, ax = plt.subplots(figsize=(8, 5))
    value, axis_label, unit = metric(results)
    size = size_of(results[0])
    variants = []
    for r in results:
        if r["variant"] not in variants:
            variants.append(r["variant"])
    for v in variants:
        pts = sorted((size(r), value(r)) for r in results if r["variant"] == v and r["verified"])
        style = "--" if v == "cub" else "-"
        ax.plot([p[0] for p in pts], [p[1] for p in pts], style, marker="o", markersize=3, label=v)
    ceilings(ax, device, unit)
    ax.set_xscale("log", base=2)
    gpu = device["name"] if device else "host"
    ax.set_title(f"{results[0]['pattern']}: {unit} against size, {label}, {gpu}")
    ax.set_xlabel("m (= n = k)" if "m" in results[0]["params"] else "n (elements)")
    ax.set_ylabel(axis_label)
    ax.legend(fontsize=7, ncol=2)
    ax.grid(True, which="major", alpha=0.3)
    fig.tight_layout()
    return fig


def compare_figure(doc):
    """Change per row, coloured by verdict, with the threshold band."""
    rows = doc["rows"]
    labels = [f"{r['variant']} {params_label(r['params'])}" for r in rows]
    change = [100 * r["change"] for r in rows]
    fig, ax = plt.subplots(figsize=(8, max(3, 0.3 * len(rows) + 1.5)))
    ax.barh(range(len(rows)), change, color=[VERDICT_COLOURS.get(r["verdict"], "#333333") for r in rows])
    t = 100 * doc["threshold"]
    ax.axvspan(-t, t, color="#dddddd", zorder=0, label=f"threshold ±{t:.1f}%")
    for verdict in dict.fromkeys(r["verdict"] for r in rows):  # one legend entry per verdict shown
        ax.bar(0, 0, color=VERDICT_COLOURS.get(verdict, "#333333"), label=verdict)
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels(labels, fontsize=7)
    ax.invert_yaxis()
    ax.set_title(f"change in throughput: {doc['new_device']} against {doc['base_device']}")
    ax.set_xlabel("change of median throughput, new vs base (%)")
    ax.set_ylabel("benchmark")
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def save(fig, out_dir, name):
    paths = []
    for ext in ("png", "svg"):
        path = os.path.join(out_dir, f"{name}.{ext}")
        fig.savefig(path, dpi=120)
        paths.append(path)
    plt.close(fig)
    return paths


def plot_ladder(path, out_dir):
    doc = load(path, "results")
    stem = os.path.splitext(os.path.basename(path))[0]
    written = []
    for (_, l2), rows in group_by_params(doc["results"]).items():
        p = rows[0]["params"]
        name = f"{stem}-ladder-" + params_label(p).replace(" ", "-").replace("=", "").replace("^", "p")
        name += "-hot" if l2 == "hot" else ""
        written += save(ladder_figure(rows, doc["device"]), out_dir, name)
    return written


def size_of(result):
    """The x of a sweep: n for reduce and scan; m for gemm (sweeps of square problems)."""
    return (lambda r: r["params"]["m"]) if "m" in result["params"] else (lambda r: r["params"]["n"])


def series_key(p):
    """What stays fixed along one sweep chart."""
    if "m" in p:
        return "gemm"
    if "kind" in p:
        return f"{p['dtype']} {p['kind']}"
    return f"{p['dtype']} {p['op']} block={p['block']}"


def plot_sweep(path, out_dir):
    doc = load(path, "results")
    stem = os.path.splitext(os.path.basename(path))[0]
    series = {}
    for r in doc["results"]:
        series.setdefault(series_key(r["params"]), []).append(r)
    written = []
    for label, results in series.items():
        fig = sweep_figure(results, doc["device"], label)
        written += save(fig, out_dir, f"{stem}-sweep-" + label.replace(" ", "-").replace("=", ""))
    return written


def plot_compare(path, out_dir):
    doc = load(path, "comparison")
    stem = os.path.splitext(os.path.basename(path))[0]
    return save(compare_figure(doc), out_dir, f"{stem}-compare")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("chart", choices=["ladder", "sweep", "compare"])
    parser.add_argument("input")
    parser.add_argument("--out", help="output directory (default: beside the input)")
    args = parser.parse_args(argv)
    out_dir = args.out or os.path.dirname(os.path.abspath(args.input))
    os.makedirs(out_dir, exist_ok=True)
    plot = {"ladder": plot_ladder, "sweep": plot_sweep, "compare": plot_compare}[args.chart]
    for path in plot(args.input, out_dir):
        print(path)


if __name__ == "__main__":
    main()
