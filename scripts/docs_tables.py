#!/usr/bin/env python3
"""Keeps the docs' tables in step with the committed results, so no figure is typed by hand.

  docs_tables.py [--check] [FILE.md ...]   (default: README.md, docs/*.md and docs/ladders/*.md)

Three kinds of marked blocks are rewritten in place:

  <!-- table: results/h200/X.txt -->      the file's contents, as printed by gpubench
  <!-- summary: results/h200/X.json -->   one row per ladder of a results file: first step, best
                                          hand-written step, its library baseline, and how close
                                          the best step comes to the library and to the ceiling
  <!-- example: results/h200/X.json#V -->  the document with only variant V's first result, its
                                          samples cut to three
  ...
  <!-- /table -->, <!-- /summary --> or <!-- /example -->

A results file may be xz-compressed (X.json.xz, as the size sweeps are), read as plot.py reads it.

With --check nothing is written; the exit code is 1 when a block differs from what it would hold.
Bad input (an unreadable page or file, a file of the wrong kind, an empty table) is one line on
stderr and exit code 2, with no page written: every page is filled before any is, and each is
replaced by renaming a complete copy over it. Paths are relative to the repository root.
"""
import argparse
import contextlib
import glob
import json
import lzma
import os
import re
import stat
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# A block's body holds no other marker, so an opening marker left unclosed cannot swallow the next block.
# FILE runs to the marker's " -->", so it may hold spaces.
BLOCK = re.compile(r"(<!-- (table|summary|example): ([^\n]+?) -->\n)((?:(?!<!-- /?(?:table|summary|example)\b).)*?)(<!-- /\2 -->)",
                   re.S)
MARKER = re.compile(r"^<!-- (/?)(table|summary|example)\b", re.M)  # at a line's start: not one quoted in prose


class Refused(Exception):
    """Bad input: main prints it as one line and exits 2."""


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
    if len(lines) == 2:  # the header alone
        raise Refused("no verified hand-written step to summarize (the table would be empty)")
    return "\n".join(lines) + "\n"


def example(doc, variant):
    if not variant:
        raise Refused("an example block names its row's variant: <!-- example: FILE#VARIANT -->")
    result = next((r for r in doc["results"] if r["variant"] == variant), None)
    if result is None:
        raise Refused(f"no result of variant {variant!r}")
    doc = dict(doc, results=[dict(result, samples_ms=result["samples_ms"][:3])])
    doc.pop("config", None)
    return "```json\n" + json.dumps(doc, indent=2, sort_keys=True) + "\n```\n"


def fill(kind, target):
    """A block's new body; raises Refused, OSError, ValueError (not UTF-8, not JSON), RecursionError (JSON nested
    deeper than the parser goes), or LZMAError and EOFError (a .xz file that is not whole xz)."""
    path, _, variant = target.partition("#")
    full = os.path.join(ROOT, path)
    with lzma.open(full, "rt", encoding="utf-8") if path.endswith(".xz") else open(full, encoding="utf-8") as f:
        if kind == "table":
            text = f.read().rstrip("\n")
            if not text:
                raise Refused("the file is empty")
            return "```text\n" + text + "\n```\n"
        doc = json.load(f)
    if not isinstance(doc, dict):
        raise Refused('expected a results file ("kind": "results"), but its top level is not an object')
    if doc.get("kind") != "results":  # a comparison says "comparison"; a config has no "kind"
        found = f'"kind": {json.dumps(doc["kind"])}' if "kind" in doc else 'no "kind"'
        raise Refused(f'expected a results file ("kind": "results"), found {found}')
    try:
        return summary(doc) if kind == "summary" else example(doc, variant)
    except (KeyError, TypeError, AttributeError, ValueError, IndexError, OverflowError) as e:
        raise Refused(f"not a results file as docs/json-schema.md describes ({type(e).__name__}: {e})") from None


def reason(e):
    """Why reading a page or a block's file failed, in a few words."""
    if isinstance(e, UnicodeDecodeError):
        return f"not UTF-8 (byte {e.object[e.start]:#04x} at offset {e.start})"
    if isinstance(e, json.JSONDecodeError):
        return f"not JSON ({e})"
    if isinstance(e, RecursionError):
        return "JSON nested too deeply to read"
    if isinstance(e, lzma.LZMAError):
        return f"not xz ({e})"
    if isinstance(e, EOFError):
        return "xz data cut short"
    if isinstance(e, OSError):
        return e.strerror or str(e)
    return str(e)


def filled_page(path):
    """The page's text and the same with every block filled."""
    page = os.path.relpath(path, ROOT)
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as e:
        raise Refused(f"{page}: {reason(e)}") from None
    unmatched = len(MARKER.findall(text)) - 2 * len(BLOCK.findall(text))
    if unmatched:
        raise Refused(f"{page}: {unmatched} block markers without their pair "
                      "(each <!-- KIND: FILE --> needs its <!-- /KIND -->, with no marker between)")

    def filled(m):
        try:
            return m.group(1) + fill(m.group(2), m.group(3)) + m.group(5)
        except (Refused, OSError, ValueError, RecursionError, lzma.LZMAError, EOFError) as e:
            line = text.count("\n", 0, m.start()) + 1
            raise Refused(f"{page}:{line}: {m.group(2)} of {m.group(3)}: {reason(e)}") from None

    return text, BLOCK.sub(filled, text)


def write_pages(pages):
    """Writes every page of {path: text} or none: each goes to a temporary file beside it, and only when all are
    written are they renamed over the pages, so a failure (a full disk) leaves every page as it was."""
    for path in pages:
        if not os.access(path, os.W_OK):  # renaming over it would succeed where writing it would not
            raise Refused(f"{os.path.relpath(path, ROOT)}: cannot write: Permission denied")
    temps = {}  # page: its temporary file, until renamed
    try:
        for path, text in pages.items():
            target = os.path.realpath(path)  # a link's file, not the link
            fd, temps[path] = tempfile.mkstemp(dir=os.path.dirname(target), prefix=f".{os.path.basename(target)}.")
            with open(fd, "w", encoding="utf-8") as f:
                f.write(text)
                f.flush()
                os.fsync(f.fileno())  # a full disk may answer only here
            os.chmod(temps[path], stat.S_IMODE(os.stat(target).st_mode))
        for path in pages:
            os.replace(temps[path], os.path.realpath(path))
            del temps[path]
    except OSError as e:
        raise Refused(f"{os.path.relpath(path, ROOT)}: cannot write: {e.strerror or e}") from None
    finally:
        for temp in temps.values():
            with contextlib.suppress(OSError):
                os.unlink(temp)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 when a block is stale")
    parser.add_argument("files", nargs="*")
    args = parser.parse_args(argv)
    files = args.files or [os.path.join(ROOT, "README.md")] + sorted(glob.glob(os.path.join(ROOT, "docs", "*.md"))) + sorted(
        glob.glob(os.path.join(ROOT, "docs", "ladders", "*.md")))
    try:
        stale = {}  # path: its new text
        for path in files:
            text, new = filled_page(path)
            if new != text:
                stale[path] = new
        if not args.check:
            write_pages(stale)
    except Refused as e:
        print(e, file=sys.stderr)
        sys.exit(2)
    if args.check and stale:
        sys.exit("stale tables (run scripts/docs_tables.py): " + ", ".join(os.path.relpath(p, ROOT) for p in stale))
    for path in stale:
        print(f"updated {os.path.relpath(path, ROOT)}")


if __name__ == "__main__":
    main()
