#!/usr/bin/env python3
"""Keeps the docs' tables in step with the committed results, so no figure is typed by hand.

  docs_tables.py [--check] [FILE.md ...]   (default: README.md, docs/*.md and docs/ladders/*.md)

Two kinds of marked blocks are rewritten in place:

  <!-- table: results/h200/X.txt -->      the file's contents, as printed by gpubench
  <!-- summary: results/h200/X.json -->   one row per ladder of a results file: first step, best
                                          hand-written step, its library baseline, and how close
                                          the best step comes to the library and to the ceiling
  <!-- example: results/h200/X.json#V -->  the document with only variant V's first result, its
                                          samples cut to three
  ...
  <!-- /table --> or <!-- /summary -->

With --check nothing is written; the exit code is 1 when a block differs from what it would hold.
Paths are relative to the repository root.
"""
import argparse
import glob
import json
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# A block's body holds no other marker, so an opening marker left unclosed cannot swallow the next block.
BLOCK = re.compile(r"(<!-- (table|summary|example): (\S+) -->\n)((?:(?!<!-- /?(?:table|summary|example)\b).)*?)(<!-- /\2 -->)",
                   re.S)
MARKER = re.compile(r"^<!-- (/?)(table|summary|example)\b", re.M)  # at a line's start: not one quoted in prose


def metric(row, name):
    return next((m for m in row["metrics"] if m["name"] == name), None)


def value_text(row, name):
    m = metric(row, name)
    if not m or m["value"] is None:
        return "-"
    suffix = "%" if m["unit"] == "%" else f" {m['unit']}" if m["unit"] else ""
    return f"{m['value']:.{m['digits']}f}{suffix}"


def primary(row):
    m = metric(row, row["primary"])
    return m["value"] if m and m["value"] is not None and row["verified"] else None


def ceiling_text(row):
    """Every percentage of a ceiling (not of a library) the row has, with its label: "92.2% peak"."""
    parts = [f"{m['value']:.1f}% {m['label'].lstrip('% ')}" for m in row["metrics"]
             if m["unit"] == "%" and m["name"] != "pct_of_library" and m["value"] is not None]
    return ", ".join(parts) or "-"


def size_text(v):
    return f"2^{v.bit_length() - 1}" if isinstance(v, int) and v >= 1024 and v & (v - 1) == 0 else str(v)


def point_text(params):
    return " ".join(f"{k}={size_text(v)}" for k, v in params.items() if k != "seed")


def summary(doc):
    groups = {}
    for r in doc["results"]:
        key = (r["pattern"], json.dumps(r["params"], sort_keys=True), json.dumps(r.get("tags", {}), sort_keys=True))
        groups.setdefault(key, []).append(r)
    lines = ["| ladder | point | first step | best hand-written step | library | best / library | best, % of ceiling |",
             "|---|---|---|---|---|---|---|"]
    for (pattern, _, tags), rows in groups.items():
        steps = [r for r in rows if r["ladder"] != "baseline"]
        timed = [r for r in steps if primary(r) is not None]
        if not steps or not timed:
            continue
        best = max(timed, key=primary)
        lib_metric = metric(best, "pct_of_library")
        lib_name = lib_metric.get("of") if lib_metric else None
        lib = next((r for r in doc["results"] if r["variant"] == lib_name and r["params"] == best["params"]), None)
        label = " ".join([pattern] + list(json.loads(tags).values()))
        cells = [label, point_text(best["params"]), f"{steps[0]['variant']} {value_text(steps[0], best['primary'])}",
                 f"{best['variant']} {value_text(best, best['primary'])}",
                 f"{lib['variant']} {value_text(lib, lib['primary'])}" if lib else "-",
                 value_text(best, "pct_of_library"), ceiling_text(best)]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def example(doc, variant):
    result = next((r for r in doc["results"] if r["variant"] == variant), None)
    if result is None:
        raise ValueError(f"no result of variant {variant!r}")
    doc = dict(doc, results=[dict(result, samples_ms=result["samples_ms"][:3])])
    doc.pop("config", None)
    return "```json\n" + json.dumps(doc, indent=2, sort_keys=True) + "\n```\n"


def fill(kind, target):
    path, _, variant = target.partition("#")
    with open(os.path.join(ROOT, path)) as f:
        if kind == "table":
            return "```text\n" + f.read().rstrip("\n") + "\n```\n"
        doc = json.load(f)
    return summary(doc) if kind == "summary" else example(doc, variant)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 when a block is stale")
    parser.add_argument("files", nargs="*")
    args = parser.parse_args(argv)
    files = args.files or [os.path.join(ROOT, "README.md")] + sorted(glob.glob(os.path.join(ROOT, "docs", "*.md"))) + sorted(
        glob.glob(os.path.join(ROOT, "docs", "ladders", "*.md")))
    stale = []
    for path in files:
        try:
            with open(path) as f:
                text = f.read()
        except OSError as e:
            sys.exit(f"cannot read {path}: {e.strerror}")
        unmatched = len(MARKER.findall(text)) - 2 * len(BLOCK.findall(text))
        if unmatched:
            sys.exit(f"{os.path.relpath(path, ROOT)}: {unmatched} block markers without their pair "
                     "(each <!-- KIND: FILE --> needs its <!-- /KIND -->, with no marker between)")

        def filled(m, path=path):
            try:
                return m.group(1) + fill(m.group(2), m.group(3)) + m.group(5)
            except (OSError, ValueError, KeyError, TypeError) as e:  # ValueError: not JSON, or no such variant
                line = text.count("\n", 0, m.start()) + 1
                sys.exit(f"{os.path.relpath(path, ROOT)}:{line}: {m.group(2)} of {m.group(3)}: {e}")

        new = BLOCK.sub(filled, text)
        if new != text:
            stale.append(path)
            if not args.check:
                with open(path, "w") as f:
                    f.write(new)
    if args.check and stale:
        sys.exit("stale tables (run scripts/docs_tables.py): " + ", ".join(os.path.relpath(p, ROOT) for p in stale))
    for path in stale:
        print(f"updated {os.path.relpath(path, ROOT)}")


if __name__ == "__main__":
    main()
