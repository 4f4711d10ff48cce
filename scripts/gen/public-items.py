#!/usr/bin/env python3
"""List the public items of a crate as its documentation shows them.

Runs `cargo doc -p CRATE --no-deps --all-features` (every feature, as
docs.rs builds it) and reads rustdoc's `all.html` (every documented item
with its path) and the module folders beside it. Items marked
`#[doc(hidden)]` are not documented and so not listed: they are the
crate's internal face, not its public one. Methods and fields are not
listed; the types that hold them are.

    scripts/gen/public-items.py                 # skills-runtime, to stdout
    scripts/gen/public-items.py -p skills-core  # another crate
    scripts/gen/public-items.py --no-build      # read the docs already built

One line per item, `kind path`, sorted by path. docs/runtime-public-items.md
records skills-runtime's list before and after issue 12 made it small.
"""

import argparse
import html
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# rustdoc's file prefixes, as they appear in all.html links.
KINDS = (
    "struct",
    "enum",
    "union",
    "trait",
    "traitalias",
    "type",
    "fn",
    "macro",
    "constant",
    "static",
    "attr",
    "derive",
    "primitive",
    "keyword",
)


def target_dir():
    return os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))


def build(crate):
    # A fresh folder, so that no page of an item since removed is read.
    shutil.rmtree(os.path.join(target_dir(), "doc", crate.replace("-", "_")), ignore_errors=True)
    subprocess.run(
        ["cargo", "doc", "-p", crate, "--no-deps", "--all-features", "--quiet"],
        cwd=ROOT,
        check=True,
    )


def items(crate):
    doc = os.path.join(target_dir(), "doc", crate.replace("-", "_"))
    with open(os.path.join(doc, "all.html"), encoding="utf-8") as page:
        text = page.read()
    found = set()
    for href in re.findall(r'<li><a href="([^"]+)">', text):
        href = html.unescape(href)
        *modules, file = href.split("/")
        kind, _, rest = file.partition(".")
        name = rest.removesuffix(".html")
        if kind not in KINDS:
            raise SystemExit(f"unknown item kind in all.html: {href}")
        found.add((kind, "::".join([*modules, name])))
    # Modules: every folder with an index.html (rustdoc writes one per
    # documented module; hidden modules get none).
    for folder, _dirs, files in os.walk(doc):
        if folder != doc and "index.html" in files:
            path = os.path.relpath(folder, doc).replace(os.sep, "::")
            found.add(("mod", path))
    return sorted(found, key=lambda item: (item[1], item[0]))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-p", "--package", default="skills-runtime")
    parser.add_argument("--no-build", action="store_true")
    args = parser.parse_args()
    if not args.no_build:
        build(args.package)
    listed = items(args.package)
    for kind, path in listed:
        print(f"{kind} {path}")
    print(f"{len(listed)} items", file=sys.stderr)


if __name__ == "__main__":
    main()
