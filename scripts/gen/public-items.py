#!/usr/bin/env python3
"""List the public items of a crate as its documentation shows them, and
check the lists the docs keep.

Runs `cargo doc -p CRATE --no-deps --all-features` (every feature, as
docs.rs builds it) with the workspace's pinned stable toolchain and reads
the HTML rustdoc writes: `all.html` (every documented item with its path),
the module folders beside it, and each type's and trait's page for what it
holds: fields, variants, inherent methods and associated items with their
signatures, a trait's required and provided ones. Items marked
`#[doc(hidden)]` are not documented and so not listed: they are the
crate's internal face, not its public one. Trait implementations (derived
or written) are not listed either.

    scripts/gen/public-items.py                 # skills-runtime, to stdout
    scripts/gen/public-items.py -p skills-core  # another crate
    scripts/gen/public-items.py --no-build      # read the docs already built
    scripts/gen/public-items.py --check         # the lists in docs/ are current
    SKILLS_BLESS=1 scripts/gen/public-items.py --check   # rewrite them

One line per item, `kind path` (with a function's or constant's
declaration after its name; a re-export with its `pub use`), sorted by path; under a type or trait, its
members indented, `kind signature`, sorted. `--check` builds the docs of
every crate in LISTS and compares each list with the block between the
markers in its Markdown file (the prose around it is written by hand); it
prints the difference and exits 1 when one is out of date, or rewrites the
block when `SKILLS_BLESS` is set. `scripts/test.sh` runs it.

The HTML read is that of the toolchain rust-toolchain.toml pins, so the
lists are the same on every machine. A toolchain update may change the
pages: an item kind it does not know stops the script, and anything else
shows as a difference to review before blessing. Cost: the documentation
of the two crates alone (`--no-deps`) once their dependencies are checked,
8 s warm; from an empty target directory about a minute of CPU (61 s,
2 min 29 s wall with other builds sharing the 2 cores), mostly checking
the dependencies, which `cargo test` does not leave behind.
"""

import argparse
import difflib
import html
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# The crates whose public items the docs list, and where.
LISTS = {
    "skills-runtime": "docs/runtime-public-items.md",
    "skills-build": "docs/build-public-items.md",
}
BEGIN = "<!-- public items: begin (scripts/gen/public-items.py --check; SKILLS_BLESS=1 rewrites) -->\n"
END = "<!-- public items: end -->\n"

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

# The sections of a type's or trait's page that list what it holds (the
# `<h2 id>`s), and the anchors of its members there, by kind.
MEMBER_SECTIONS = (
    "fields",
    "variants",
    "implementations",
    "required-associated-types",
    "provided-associated-types",
    "required-associated-consts",
    "provided-associated-consts",
    "required-methods",
    "provided-methods",
)
MEMBER = re.compile(r'id="(structfield|variant|method|tymethod|associatedconstant|associatedtype)\.([^"]+)"')
MEMBER_KINDS = {
    "structfield": "field",
    "variant": "variant",
    "method": "method",
    "tymethod": "method",
    "associatedconstant": "const",
    "associatedtype": "type",
}


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


def text_of(fragment):
    """The code an HTML fragment shows, on one line."""
    # Notable traits' tooltips (ⓘ) are decoration; a where clause is a
    # block of its own.
    fragment = re.sub(r'<a [^>]*class="tooltip"[^>]*>.*?</a>', "", fragment, flags=re.S)
    fragment = fragment.replace('<div class="where">', " ")
    text = html.unescape(re.sub(r"<[^>]+>", "", fragment))
    text = re.sub(r"\s+", " ", text).strip()
    text = re.sub(r"([(<\[]) ", r"\1", text)
    text = re.sub(r",? ([)>\]])", r"\1", text)
    return text.removesuffix(",")


def members(page):
    """What a type's or trait's page lists: (kind, signature) pairs."""
    with open(page, encoding="utf-8") as f:
        text = f.read()
    heads = [(m.start(), m.group(1)) for m in re.finditer(r'<h2 id="([^"]+)"', text)]
    found = set()
    for i, (start, section) in enumerate(heads):
        if section not in MEMBER_SECTIONS:
            continue
        end = heads[i + 1][0] if i + 1 < len(heads) else len(text)
        body = text[start:end]
        for m in MEMBER.finditer(body):
            kind, anchor = MEMBER_KINDS[m.group(1)], m.group(2)
            if anchor.endswith(".fields"):
                continue  # the heading over a variant's fields
            if kind == "variant" and ".field." in anchor:
                kind = "field"
            # The member's code: the heading or `<code>` right after its anchor.
            rest = body[m.end() :]
            header = re.search(r'<(h[34]) class="code-header">(.*?)</\1>|<code>(.*?)</code>', rest, re.S)
            signature = text_of(header.group(2) or header.group(3)) if header else anchor
            if kind == "field" and ".field." in anchor:
                signature = f"{anchor.split('.')[0]}.{signature}"
            found.add((kind, signature))
    # Fields, then variants (each with its fields), associated types and
    # constants, then methods; by name within each.
    rank = {"field": 0, "variant": 1, "type": 2, "const": 3, "method": 4}
    variant_fields = {(k, sig) for k, sig in found if k == "field" and "." in sig.split(":")[0]}
    return sorted(found, key=lambda m: (rank["variant"] if m in variant_fields else rank[m[0]], m[1]))


def declaration(page, name):
    """What follows an item's name in its declaration: a function's
    generics, parameters and return type, a constant's type and value."""
    with open(page, encoding="utf-8") as f:
        text = f.read()
    decl = re.search(r'<pre class="rust item-decl"><code>(.*?)</code></pre>', text, re.S)
    if not decl:
        return ""
    code = text_of(decl.group(1))
    at = re.search(r"\b" + re.escape(name) + r"\b", code)
    if not at:
        return ""
    rest = code[at.end() :]
    # rustdoc shows a constant as `= _; // value`.
    rest = re.sub(r" = _; // (.*)$", r" = \1", rest)
    return rest.removesuffix(";")


def items(crate):
    doc = os.path.join(target_dir(), "doc", crate.replace("-", "_"))
    with open(os.path.join(doc, "all.html"), encoding="utf-8") as page:
        text = page.read()
    found = {}
    for href in re.findall(r'<li><a href="([^"]+)">', text):
        href = html.unescape(href)
        *modules, file = href.split("/")
        kind, _, rest = file.partition(".")
        name = rest.removesuffix(".html")
        if kind not in KINDS:
            raise SystemExit(f"unknown item kind in all.html: {href}")
        held = []
        if kind in ("struct", "enum", "union", "trait"):
            held = members(os.path.join(doc, href))
        path = "::".join([*modules, name])
        if kind in ("fn", "constant", "static", "type"):
            path += declaration(os.path.join(doc, href), name)
        found[(kind, path)] = held
    # Modules: every folder with an index.html (rustdoc writes one per
    # documented module; hidden modules get none). A module's page also
    # shows what it re-exports without inlining (another crate as a
    # module, an item of a public module): `reexport path (pub use ...)`.
    for folder, _dirs, files in os.walk(doc):
        if "index.html" not in files:
            continue
        path = os.path.relpath(folder, doc).replace(os.sep, "::") if folder != doc else ""
        if path:
            found[("mod", path)] = []
        with open(os.path.join(folder, "index.html"), encoding="utf-8") as page:
            index = page.read()
        for m in re.finditer(r'<dt id="reexport\.([^"]+)"><code>(.*?)</code>', index, re.S):
            name = "::".join(filter(None, [path, m.group(1)]))
            found[("reexport", f"{name} ({text_of(m.group(2)).removesuffix(';')})")] = []
    return sorted(found.items(), key=lambda item: (item[0][1], item[0][0]))


def render(listed):
    lines = []
    for (kind, path), held in listed:
        lines.append(f"{kind} {path}")
        lines.extend(f"    {member_kind} {signature}" for member_kind, signature in held)
    return "\n".join(lines) + "\n"


def block(listed):
    """The generated part of a list's Markdown file."""
    count = len(listed)
    held = sum(len(h) for _, h in listed)
    return (
        f"{BEGIN}{count} items, holding {held} fields, variants, methods and associated items:\n\n"
        f"```text\n{render(listed)}```\n{END}"
    )


def check(build_first):
    bless = bool(os.environ.get("SKILLS_BLESS"))
    stale = []
    for crate, doc in LISTS.items():
        if build_first:
            build(crate)
        path = os.path.join(ROOT, doc)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        if BEGIN not in text or END not in text:
            raise SystemExit(f"{doc}: no `{BEGIN.strip()}` ... `{END.strip()}` block")
        start = text.index(BEGIN)
        end = text.index(END) + len(END)
        want = block(items(crate))
        if text[start:end] == want:
            print(f"{doc}: {crate}'s public items are current")
            continue
        if bless:
            with open(path, "w", encoding="utf-8") as f:
                f.write(text[:start] + want + text[end:])
            print(f"{doc}: rewritten")
            continue
        stale.append(doc)
        sys.stdout.writelines(
            difflib.unified_diff(
                text[start:end].splitlines(True), want.splitlines(True), f"{doc} (as written)", f"{doc} (as built)"
            )
        )
    if stale:
        print(f"out of date: {', '.join(stale)}; review the difference, then rerun with SKILLS_BLESS=1")
        return 1
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-p", "--package", default="skills-runtime")
    parser.add_argument("--no-build", action="store_true")
    parser.add_argument("--check", action="store_true", help="check (or bless) the lists in docs/")
    args = parser.parse_args()
    if args.check:
        return check(not args.no_build)
    if not args.no_build:
        build(args.package)
    listed = items(args.package)
    sys.stdout.write(render(listed))
    print(f"{len(listed)} items", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
