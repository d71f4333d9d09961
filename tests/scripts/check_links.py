#!/usr/bin/env python3
"""Every relative link and image in the repository's markdown names a file or folder of the repository.

  check_links.py ROOT

In a git checkout "of the repository" means tracked or to be committed (not ignored, so not build/), as
a fresh clone would have it; elsewhere, anything under ROOT.
"""
import glob
import os
import re
import subprocess
import sys

LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


def repository_paths(root):
    """The files git would commit and their folders, or None outside a git checkout."""
    try:
        listed = subprocess.run(["git", "-C", root, "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                                capture_output=True, check=True).stdout.decode().split("\0")
    except (OSError, subprocess.CalledProcessError):
        return None
    paths = set()
    for name in filter(None, listed):
        path = os.path.join(root, name)
        while path != root and path not in paths:
            paths.add(path)
            path = os.path.dirname(path)
    return paths


def broken_links(root):
    known = repository_paths(root)
    pages = glob.glob(os.path.join(root, "*.md")) + glob.glob(os.path.join(root, "docs", "**", "*.md"), recursive=True)
    pages += glob.glob(os.path.join(root, "results", "**", "*.md"), recursive=True)
    for page in sorted(pages):
        with open(page) as f:
            for number, line in enumerate(f, 1):
                for target in LINK.findall(line):
                    if re.match(r"[a-z]+:", target) or target.startswith("#"):
                        continue  # a URL or an anchor in the page
                    path = os.path.normpath(os.path.join(os.path.dirname(page), target.split("#")[0]))
                    inside = os.path.commonpath([path, root]) == root
                    if not inside or not (path in known if known is not None else os.path.exists(path)):
                        yield f"{os.path.relpath(page, root)}:{number}: {target}"


def main():
    broken = list(broken_links(os.path.abspath(sys.argv[1])))
    for b in broken:
        print(f"no such file in the repository: {b}")
    sys.exit(1 if broken else 0)


if __name__ == "__main__":
    main()
