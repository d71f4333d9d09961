#!/usr/bin/env python3
"""Markdown table of a size sweep: per size, the fastest hand-written variant
against cub, from a gpubench JSON document (docs/json-schema.md).

Usage: scripts/summarize_sizes.py results/h200/reduce-sizes.json
"""
import json
import sys


def main(path):
    doc = json.load(open(path))
    if doc.get("schema_version") != 1:
        sys.exit(f"{path}: schema_version {doc.get('schema_version')} is not 1")
    by_n = {}
    for r in doc["results"]:
        by_n.setdefault(r["params"]["n"], {})[r["variant"]] = r
    print("| n | fastest hand-written | median | GB/s | cub median | cub GB/s | cub / fastest |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for n, rows in sorted(by_n.items()):
        mine = [r for v, r in rows.items() if v != "cub" and r["verified"]]
        if not mine or "cub" not in rows:
            continue
        best = min(mine, key=lambda r: r["median_ms"])
        cub = rows["cub"]
        exp = n.bit_length() - 1
        label = f"2^{exp}" if n == 1 << exp else str(n)
        print(f"| {label} | {best['variant']} | {best['median_ms'] * 1e3:.2f} us | {best['gbps']:.0f} "
              f"| {cub['median_ms'] * 1e3:.2f} us | {cub['gbps']:.0f} | {cub['median_ms'] / best['median_ms']:.3f} |")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
