#!/usr/bin/env python3
"""Pictures from gpubench results (docs/json-schema.md).

  plot.py ladder  RESULTS.json    [--out DIR]   one bar chart per parameter set
  plot.py sweep   RESULTS.json    [--out DIR]   primary metric against the swept parameter, per variant
  plot.py compare COMPARISON.json [--out DIR]   change per row, from `gpubench compare --json`

The script knows no pattern: every result names its `primary` metric (value,
label, unit) and its `ladder`, and `continues` names the ladder whose steps it
carries on. The ladder `baseline` holds library and CPU rows; its device rows
are drawn as reference lines. Ceilings come from the device: bandwidth lines
for a GB/s metric, the FP32 peak for a TFLOP/s one. Each pattern in the file
is drawn on its own. A sweep runs along the one integer parameter with the
most distinct values among the pattern's results; other parameters that
differ make one chart each, and a pattern whose results differ in no integer
parameter is left out with a line on stderr. The sweep's axis is log2; where
the swept parameter takes 0 (or less), it is linear out to the smallest
magnitude other than 0 and log2 beyond (symlog), so no point is left off. Where seeds
differ, the seed joins the chart titles and names. Schema 1 results are
converted on loading (their throughput becomes the primary metric).

RESULTS.json may be xz-compressed (RESULTS.json.xz, as the size sweeps are
stored). Each chart is written as PNG and SVG into DIR (default: beside the
input), named after the input file (and the pattern, where charts of two
patterns would share a name). Needs matplotlib (Debian:
python3-matplotlib). A file that cannot be read or drawn is one line on
stderr and exit 1, and no chart is written.
"""
import argparse
import collections
import contextlib
import errno
import hashlib
import io
import json
import lzma
import os
import re
import sys

try:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams["svg.fonttype"] = "none"  # keep text as text in SVG
except ImportError:
    plt = None  # main() says so; --help still works

PALETTE = ["#4c72b0", "#55a868", "#dd8452", "#8172b3", "#937860", "#da8bc3", "#64b5cd", "#ccb974"]
BASELINE_COLOUR = "#8c8c8c"
VERDICT_COLOURS = {"faster": "#55a868", "slower": "#c44e52", "same": "#8c8c8c", "unclear": "#ccb974",
                   "FAIL": "#000000"}


def from_v1(r):
    """A schema 1 result in the schema 2 shape: its throughput becomes the one, primary, metric."""
    if r.get("gflops") is not None:
        m = {"name": "tflops", "label": "TFLOP/s", "unit": "TFLOP/s", "value": r["gflops"] / 1000, "digits": 1}
    else:
        m = {"name": "gbps", "label": "GB/s", "unit": "GB/s", "value": r["gbps"], "digits": 1}
    return {**r, "continues": None, "primary": m["name"], "metrics": [m]}


def load(path, kind):
    try:
        with (lzma.open(path, "rt") if path.endswith(".xz") else open(path)) as f:
            doc = json.load(f)
    except (OSError, ValueError, EOFError, lzma.LZMAError) as e:  # ValueError: not JSON, or not UTF-8
        sys.exit(f"{path}: cannot read: {e}")
    except RecursionError:
        sys.exit(f"{path}: cannot read: nested deeper than Python's JSON reader goes")
    if not isinstance(doc, dict):
        sys.exit(f"{path}: not a gpubench results or comparison document (its top level is not an object)")
    # Schema 1 results files have no "kind"; a config has "benchmarks" and no "kind".
    if doc.get("kind") != kind and not (kind == "results" and "kind" not in doc and "results" in doc):
        found = (f'"kind": {json.dumps(doc["kind"])}' if "kind" in doc
                 else 'a config ("benchmarks", no "kind")' if "benchmarks" in doc else 'no "kind"')
        wanted = ("a comparison (gpubench compare --json)" if kind == "comparison"
                  else "a results file (gpubench --json)")
        sys.exit(f"{path}: expected {wanted}, found {found}")
    version = doc.get("schema_version")
    if version not in (1, 2):
        sys.exit(f"{path}: schema_version {version!r} is not one this script reads")
    if kind == "comparison" and not doc.get("rows"):
        sys.exit(f"{path}: no rows to draw (the comparison has none)")
    if kind == "results" and not isinstance(doc.get("results"), list):
        sys.exit(f"{path}: its results are not a list")
    if kind == "results" and not doc["results"]:
        sys.exit(f"{path}: no results to draw (the run has no rows)")
    if kind == "results" and version == 1:
        doc["results"] = [from_v1(r) for r in doc["results"]]
    if kind == "results":
        # Files from before host rows were flushed say "n/a": draw them with their run's device rows.
        run_l2 = doc.get("l2") if doc.get("l2") in ("flushed", "hot") else "flushed"
        for i, r in enumerate(doc["results"], 1):
            if r.get("l2") == "n/a":
                r["l2"] = run_l2
            median = r.get("median_ms")
            if r.get("verified") and not (isinstance(median, (int, float)) and median > 0):  # speedups divide by it
                sys.exit(f"{path}: result {i} ({r.get('pattern')} {r.get('variant')}): median_ms is {median!r}, "
                         "not a positive time")
    return doc


def is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def value_label(v):
    """Powers of two from 1024 up as 2^k, everything else as it is."""
    if is_int(v) and v >= 1024 and v & (v - 1) == 0:
        return f"2^{v.bit_length() - 1}"
    return str(v)


def params_label(p, leave_out=("seed",)):
    return " ".join(f"{k}={value_label(v)}" for k, v in p.items() if k not in leave_out)


def unlabelled(results):
    """What labels leave out of these results' params: the seed, unless it differs between them
    (then it tells their charts apart)."""
    return ("seed",) if len({json.dumps(r["params"].get("seed")) for r in results}) == 1 else ()


def chart_name(stem, chart, label, l2):
    """A file name without a folder in it, short enough for any file system (ending in a hash when cut)."""
    parts = [stem, chart, label.replace(" ", "-").replace("=", "").replace("^", "p")]
    name = "-".join(p for p in parts if p) + ("-hot" if l2 == "hot" else "")
    name = re.sub(r"[^A-Za-z0-9._+-]", "_", name)
    if len(name) > 200:
        name = name[:190] + "-" + hashlib.sha1(name.encode()).hexdigest()[:8]
    return name


def chart_names(path, charts):
    """File names for charts given as (chart, pattern, label, l2). The pattern joins a name that
    charts of several patterns would share; a name still shared (labels that differ only where a
    file name cannot) refuses the file rather than have one chart overwrite another."""
    stem = stem_of(path)
    plain = [chart_name(stem, chart, label, l2) for chart, _, label, l2 in charts]
    shared = {name for name, count in collections.Counter(plain).items() if count > 1}
    names = [chart_name(stem, chart, f"{pattern} {label}", l2) if name in shared else name
             for (chart, pattern, label, l2), name in zip(charts, plain)]
    for name, count in collections.Counter(names).items():
        if count > 1:
            sys.exit(f"{path}: {count} charts would be named {name}")
    return names


def primary(r):
    """The metric a chart plots: a dict with name, label, unit, value (may be null) and digits."""
    return {m["name"]: m for m in r["metrics"]}[r["primary"]]


def value(r):
    """The primary metric's value, None when the row failed or has none."""
    return primary(r)["value"] if r["verified"] else None


def axis_label(r):
    m = primary(r)
    return m["label"] if m["label"] == m["unit"] else f"{m['label']} ({m['unit']})"


def ladder_colours(rows):
    """A palette colour per ladder, in order of first appearance; baseline grey."""
    ladders = [lad for lad in dict.fromkeys(r["ladder"] for r in rows) if lad != "baseline"]
    colours = {lad: PALETTE[i % len(PALETTE)] for i, lad in enumerate(ladders)}
    colours["baseline"] = BASELINE_COLOUR
    return colours


DRAM_METRICS = ("pct_of_peak", "pct_of_copy")  # the metrics that say a row is measured against DRAM


def ceilings(ax, device, unit, rows):
    if not device:
        return
    if unit == "TFLOP/s" and device.get("fp32_peak_gflops"):
        ax.axhline(device["fp32_peak_gflops"] / 1000, color="#c44e52", linestyle="--", linewidth=1,
                   label=f"FP32 CUDA-core peak {device['fp32_peak_gflops'] / 1000:.1f} TFLOP/s")
    # GB/s against another bound (host-device copy engines, say) leaves DRAM's lines out.
    if unit == "GB/s" and any(m["name"] in DRAM_METRICS for r in rows for m in r["metrics"]):
        ax.axhline(device["theoretical_gbps"], color="#c44e52", linestyle="--", linewidth=1,
                   label=f"theoretical {device['theoretical_gbps']:.0f} GB/s")
        ax.axhline(device["copy_gbps"], color="#c44e52", linestyle=":", linewidth=1,
                   label=f"measured copy {device['copy_gbps']:.0f} GB/s")


def step_labels(rows):
    """Per row: 'FAIL', 'n/a' (no value), the speedup over the previous step of its ladder (for a
    ladder's first step: over the last step of the ladder it continues), or ''."""
    last, labels = {}, []
    for r in rows:
        if not r["verified"]:
            labels.append("FAIL")
            continue
        if value(r) is None:
            labels.append("n/a")
            continue
        before = last.get(r["ladder"]) or last.get(r.get("continues"))
        labels.append(f"{before['median_ms'] / r['median_ms']:.2f}x"
                      if before and r["ladder"] != "baseline" else "")
        last[r["ladder"]] = r
    return labels


def ladder_figure(rows, device, leave_out=("seed",)):
    """One bar per step, library baseline and ceilings as lines, step speedups on the bars;
    the title has the params but those in leave_out."""
    fig, ax = plt.subplots(figsize=(max(6, 0.7 * len(rows) + 2), 5))
    unit = primary(rows[0])["unit"]
    colours = ladder_colours(rows)
    bars = ax.bar([r["variant"] for r in rows], [value(r) or 0 for r in rows],
                  color=[colours[r["ladder"]] for r in rows])
    for bar, label in zip(bars, step_labels(rows)):
        ax.annotate(label, (bar.get_x() + bar.get_width() / 2, bar.get_height()), ha="center", va="bottom",
                    fontsize=8)
    for r in rows:
        if r["ladder"] == "baseline" and r["where"] == "device" and value(r) is not None:
            ax.axhline(value(r), color=BASELINE_COLOUR, linestyle="-.", linewidth=1,
                       label=f"{r['variant']} {value(r):.{primary(r).get('digits', 1)}f} {unit}")
    ceilings(ax, device, unit, rows)
    gpu = device["name"] if device else "host"
    ax.set_title(f"{rows[0]['pattern']} ladder, {params_label(rows[0]['params'], leave_out)}, {gpu}")
    ax.set_xlabel("step (label: speedup over the previous step of its ladder)")
    ax.set_ylabel(axis_label(rows[0]))
    ax.tick_params(axis="x", labelrotation=45)
    if ax.get_legend_handles_labels()[0]:
        ax.legend(fontsize=8, loc="upper left")
    fig.tight_layout()
    return fig


def metric_value(r, name):
    """A named metric's value, None where the row has none or failed."""
    m = next((m for m in r["metrics"] if m["name"] == name), None)
    return m["value"] if m and r["verified"] else None


def energy_figure(rows, device, leave_out=("seed",)):
    """Beside each step's median time, its energy per run (--energy): the part above the
    GPU's idle power dark, the idle part light. The problem is the same for every step,
    so per run is per element too. The title is as ladder_figure's."""
    rows = [r for r in rows if metric_value(r, "energy_mj") is not None]
    fig, (left, right) = plt.subplots(1, 2, figsize=(max(8, 1.1 * len(rows) + 3), 5))
    names = [r["variant"] for r in rows]
    colours = ladder_colours(rows)
    left.bar(names, [r["median_ms"] for r in rows], color=[colours[r["ladder"]] for r in rows])
    left.set_ylabel("median time per run (ms)")
    left.set_title("time")
    above = [metric_value(r, "energy_above_idle_mj") or 0 for r in rows]
    idle = [metric_value(r, "energy_mj") - a for r, a in zip(rows, above)]
    right.bar(names, above, color=[colours[r["ladder"]] for r in rows], label="above idle")
    right.bar(names, idle, bottom=above, color="#dddddd", label="idle power over the run")
    right.set_ylabel("energy per run (mJ)")
    right.set_title("energy (back-to-back runs, hot L2)")
    right.legend(fontsize=8)
    for ax in (left, right):
        ax.set_xlabel("step")
        ax.tick_params(axis="x", labelrotation=45)
    gpu = device["name"] if device else "host"
    fig.suptitle(f"{rows[0]['pattern']} ladder, {params_label(rows[0]['params'], leave_out)}, {gpu}")
    fig.tight_layout()
    return fig


def swept_param(results):
    """The integer parameter (other than seed) with the most distinct values
    (the first such, on a tie), None where none differs: the others that differ
    split the sweep into charts."""
    best, most = None, 1
    for k in dict.fromkeys(k for r in results for k in r["params"] if k != "seed"):
        values = {r["params"].get(k) for r in results}
        if len(values) > most and all(is_int(v) for v in values):
            best, most = k, len(values)
    return best


def companions(results, swept):
    """The other parameters that step with the swept one (width and height of
    square images, say): each swept value goes with one value of theirs. They
    are the sweep's axis too, not a reason to split it."""
    found = []
    for k in dict.fromkeys(k for r in results for k in r["params"] if k not in ("seed", swept)):
        pairs = {(json.dumps(r["params"].get(swept)), json.dumps(r["params"].get(k))) for r in results}
        if len({b for _, b in pairs}) > 1 and len(pairs) == len({a for a, _ in pairs}):
            found.append(k)
    return found


def sweep_figure(results, device, label, swept, along=()):
    """The primary metric against the swept parameter (log2 scale, symlog where it takes 0 or
    less), one line per variant."""
    fig, ax = plt.subplots(figsize=(8, 5))
    unit = primary(results[0])["unit"]
    for v in dict.fromkeys(r["variant"] for r in results):
        rows = [r for r in results if r["variant"] == v]
        pts = sorted((r["params"][swept], value(r)) for r in rows if value(r) is not None)
        style = "--" if rows[0]["ladder"] == "baseline" else "-"
        ax.plot([p[0] for p in pts], [p[1] for p in pts], style, marker="o", markersize=3, label=v)
    ceilings(ax, device, unit, results)
    xs = {r["params"][swept] for r in results}
    if min(xs) > 0:
        ax.set_xscale("log", base=2)
    elif any(xs):  # a log axis has no 0: linear up to the smallest other magnitude, log2 beyond
        ax.set_xscale("symlog", base=2, linthresh=min(abs(x) for x in xs if x))
    gpu = device["name"] if device else "host"
    axis = " = ".join([swept, *along])
    ax.set_title(", ".join(part for part in (f"{results[0]['pattern']}: {unit} against {axis}", label, gpu) if part))
    ax.set_xlabel(axis)
    ax.set_ylabel(axis_label(results[0]))
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
    ax.axvspan(-t, t, color="#dddddd", zorder=0, label=f"threshold ±{t:g}%")
    # Rows judged with their pattern's own threshold (compare --threshold PATTERN=PERCENT): ticks at it.
    own = doc.get("pattern_thresholds") or {}
    marked = [(i, 100 * own[r["pattern"]]) for i, r in enumerate(rows) if r.get("pattern") in own]
    for n, (i, o) in enumerate(marked):
        ax.plot([-o, o], [i, i], "|", color="#555555", markersize=9, label=None if n else "the row's own threshold")
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


def render(fig):
    """The figure as PNG and SVG bytes, and closed: every chart is drawn before any is written."""
    files = {}
    for ext in ("png", "svg"):
        buf = io.BytesIO()
        fig.savefig(buf, format=ext, dpi=120)
        files[ext] = buf.getvalue()
    plt.close(fig)
    return files


def save(out_dir, charts):
    """Writes charts given as (name, files from render) into out_dir, each file under a temporary
    name until all are written: a run that fails part way (a full disk, an interrupt) leaves none."""
    os.makedirs(out_dir, exist_ok=True)  # once the input is known to be drawable
    written = []  # (temporary, final) paths
    try:
        for name, files in charts:
            for ext, data in files.items():
                temporary = os.path.join(out_dir, f".{name}.{ext}.tmp")
                written.append((temporary, os.path.join(out_dir, f"{name}.{ext}")))
                with open(temporary, "wb") as f:
                    f.write(data)
        for _, path in written:  # a rename refused part way would leave some charts written
            if os.path.isdir(path):
                raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), path)
        for temporary, path in written:
            os.replace(temporary, path)
    except BaseException:
        for temporary, _ in written:
            with contextlib.suppress(FileNotFoundError):
                os.remove(temporary)
        raise
    return [path for _, path in written]


def stem_of(path):
    name = os.path.basename(path)
    return os.path.splitext(name[:-len(".xz")] if name.endswith(".xz") else name)[0]


def device_of(doc, index):
    """The device block of CUDA device `index` (files before "devices" hold one, in "device")."""
    return next((d for d in doc.get("devices", []) if d.get("index") == index), doc.get("device"))


def device_label(doc, index):
    """" device=N" where the run used several devices, else nothing."""
    return f" device={index}" if len(doc.get("devices", [])) > 1 else ""


def save_named(path, out_dir, charts):
    """save() for charts given as ((chart, pattern, label, l2), files), named by chart_names()."""
    names = chart_names(path, [spec for spec, _ in charts])
    return save(out_dir, [(name, files) for name, (_, files) in zip(names, charts)])


def plot_ladder(path, out_dir):
    doc = load(path, "results")
    groups = {}
    for r in doc["results"]:
        key = (r["pattern"], json.dumps(r["params"], sort_keys=True), r.get("l2", "flushed"), r.get("device", 0))
        groups.setdefault(key, []).append(r)
    leave_out = unlabelled(doc["results"])
    charts = []
    for (pattern, _, l2, index), rows in groups.items():
        device = device_of(doc, index)
        label = params_label(rows[0]["params"], leave_out) + device_label(doc, index)
        charts.append((("ladder", pattern, label, l2), render(ladder_figure(rows, device, leave_out))))
        if any(metric_value(r, "energy_mj") is not None for r in rows):
            charts.append((("energy", pattern, label, l2), render(energy_figure(rows, device, leave_out))))
    return save_named(path, out_dir, charts)


def plot_sweep(path, out_dir):
    doc = load(path, "results")
    patterns = {}
    for r in doc["results"]:
        patterns.setdefault(r["pattern"], []).append(r)
    charts, unswept = [], []
    for pattern, results in patterns.items():
        swept = swept_param(results)
        if swept is None:
            unswept.append(pattern)
            continue
        along = companions(results, swept)
        leave_out = (swept, *along, *unlabelled(results))
        series = {}
        for r in results:
            index = r.get("device", 0)
            label = params_label(r["params"], leave_out) + device_label(doc, index)
            series.setdefault((label, r.get("l2", "flushed"), index), []).append(r)
        for (label, l2, index), rows in series.items():
            fig = sweep_figure(rows, device_of(doc, index), label, swept, along)
            charts.append((("sweep", pattern, label, l2), render(fig)))
    if not charts:
        among = "the results of any one pattern" if len(patterns) > 1 else "the results"
        sys.exit(f"{path}: no integer parameter differs between {among}, so there is no sweep to draw")
    for pattern in unswept:
        print(f"{path}: {pattern} left out: no integer parameter differs between its results", file=sys.stderr)
    return save_named(path, out_dir, charts)


def plot_compare(path, out_dir):
    doc = load(path, "comparison")
    return save(out_dir, [(f"{stem_of(path)}-compare", render(compare_figure(doc)))])


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("chart", choices=["ladder", "sweep", "compare"])
    parser.add_argument("input")
    parser.add_argument("--out", help="output directory (default: beside the input)")
    args = parser.parse_args(argv)
    if plt is None:
        sys.exit("plot.py needs matplotlib (Debian: python3-matplotlib)")
    if args.out == "":
        sys.exit("--out '': name a folder, or leave --out out to write beside the input")
    out_dir = args.out or os.path.dirname(os.path.abspath(args.input))
    plot = {"ladder": plot_ladder, "sweep": plot_sweep, "compare": plot_compare}[args.chart]
    try:
        written = plot(args.input, out_dir)
    except OSError as e:
        sys.exit(f"cannot write the charts into {out_dir}: {e.strerror or e}")
    except (KeyError, TypeError, AttributeError, ValueError, IndexError, RecursionError, OverflowError) as e:
        if os.environ.get("PLOT_TRACEBACK"):  # a bug of this script's, not of the file
            raise
        sys.exit(f"{args.input}: not drawable as a gpubench {args.chart} file ({type(e).__name__}: {e}; "
                 "PLOT_TRACEBACK=1 shows where)")
    for path in written:
        print(path)


if __name__ == "__main__":
    main()
