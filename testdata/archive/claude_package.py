#!/usr/bin/env python3
"""Writes a .skill archive of one skill folder the way the Claude
skill-creator packager does: a deflated zip written by the standard
library's zipfile, each file under `<folder>/<path>` in the order
Path.rglob finds it, with the file's own timestamp and mode, leaving out
__pycache__ and node_modules directories, *.pyc files and .DS_Store.

Usage: claude_package.py SKILL_DIR OUT_FILE

Only the standard library is needed. The tests run it when python3 is
present; the archive it made once is committed beside it, so the tests
need no Python.
"""

import fnmatch
import sys
import zipfile
from pathlib import Path

SKIPPED_DIRS = {"__pycache__", "node_modules"}
SKIPPED_PATTERNS = {"*.pyc"}
SKIPPED_NAMES = {".DS_Store"}


def skipped(relative: Path) -> bool:
    if any(part in SKIPPED_DIRS for part in relative.parts):
        return True
    if relative.name in SKIPPED_NAMES:
        return True
    return any(fnmatch.fnmatch(relative.name, p) for p in SKIPPED_PATTERNS)


def main() -> int:
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    folder = Path(sys.argv[1]).resolve()
    out = Path(sys.argv[2])
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in folder.rglob("*"):
            if not path.is_file():
                continue
            name = path.relative_to(folder.parent)
            if skipped(name):
                continue
            archive.write(path, name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
