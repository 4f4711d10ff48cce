#!/usr/bin/env python3
"""Write, or check, the parts of docs/architecture.md drawn from the code.

    scripts/gen/architecture.py            # check: exit 1 with the difference
    SKILLS_BLESS=1 scripts/gen/architecture.py   # rewrite the blocks

Three blocks of docs/architecture.md are generated; the prose around them is
written by hand:

- `crate graph`: which published crate depends on which, from
  `cargo metadata --no-deps` of the workspace and of the workspaces it
  excludes that have members of their own (skills-rig's). Normal and build
  dependencies count; dev-dependencies (tests only) and unpublished
  packages (`publish = false`: examples, tests) do not. An optional
  dependency is marked with the features that turn it on.
- `core wings`: which wing of skills-core imports which, from the imports
  `scripts/check/module-cycles.py` reads (every module's imports summed up
  by the top-level module it sits in, the crate root left out), in the
  order skills-core's lib.rs lists its wings under `# Wings`.
- `rule stages`: where each rule runs, from the rule table in
  skills-build/src/problem.rs (its `codes!` rows' stage column), stage by
  stage in the order `problem::Stage` declares them.

`scripts/test.sh` runs the check, so the document cannot drift from the
code: a new crate, dependency or import between wings fails it until the
blocks are rewritten and the change reviewed.
"""

import difflib
import importlib.util
import json
import os
import subprocess
import sys
import tomllib

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DOC = "docs/architecture.md"


def begin(name):
    return f"<!-- {name}: begin (scripts/gen/architecture.py; SKILLS_BLESS=1 rewrites) -->\n"


def end(name):
    return f"<!-- {name}: end -->\n"


def metadata(manifest):
    out = subprocess.run(
        ["cargo", "metadata", "--format-version", "1", "--no-deps", "--manifest-path", manifest],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(out.stdout)["packages"]


def packages():
    """Every package of the workspace and of the workspaces it excludes."""
    found = metadata(os.path.join(ROOT, "Cargo.toml"))
    workspace = tomllib.load(open(os.path.join(ROOT, "Cargo.toml"), "rb"))["workspace"]
    for excluded in workspace.get("exclude", []):
        manifest = os.path.join(ROOT, excluded, "Cargo.toml")
        if os.path.exists(manifest) and "workspace" in tomllib.load(open(manifest, "rb")):
            found += metadata(manifest)
    return found


def enabling_features(package, dependency):
    """The features of `package` that turn on its optional `dependency`."""
    names = {dependency, f"dep:{dependency}"}
    return sorted(
        feature
        for feature, enables in package["features"].items()
        if any(e in names or e.startswith(f"{dependency}/") for e in enables)
    )


def crate_graph():
    published = [p for p in packages() if p.get("publish") != []]
    ours = {p["name"] for p in published}
    edges = {}
    for package in published:
        deps = {}
        for dep in package["dependencies"]:
            if dep["name"] not in ours or dep["kind"] == "dev" or dep["name"] == package["name"]:
                continue
            note = []
            if dep["kind"] == "build":
                note.append("build")
            if dep["optional"]:
                note.append("optional: " + ", ".join(enabling_features(package, dep["name"])))
            previous = deps.get(dep["name"])
            deps[dep["name"]] = note if previous is None else [n for n in previous if n in note]
        edges[package["name"]] = deps
    # Dependents before what they depend on; alphabetical among equals.
    depth = {}

    def height(name):
        if name not in depth:
            depth[name] = 1 + max((height(d) for d in edges[name]), default=-1)
        return depth[name]

    order = sorted(edges, key=lambda name: (-height(name), name))
    width = max(len(name) for name in order)
    lines = []
    for name in order:
        targets = [f"{d} ({'; '.join(n)})" if n else d for d, n in sorted(edges[name].items())]
        lines.append(f"{name:<{width}} -> {', '.join(targets)}" if targets else f"{name:<{width}}    (no crate of ours)")
    return "```text\n" + "\n".join(lines) + "\n```\n"


def core_wings():
    spec = importlib.util.spec_from_file_location("cycles", os.path.join(ROOT, "scripts/check/module-cycles.py"))
    cycles = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(cycles)
    crate = cycles.Crate("skills-core (lib)", os.path.join(ROOT, "skills-core/src/lib.rs"))
    wings = crate.wings()
    imports = {wing: set() for wing in wings}
    for a, b in crate.edges():
        if a.path and b.path and a.path[0] != b.path[0]:
            imports.setdefault(a.path[0], set()).add(b.path[0])
    rank = {wing: i for i, wing in enumerate(wings)}
    width = max(len(w) for w in imports)
    lines = []
    for wing in sorted(imports, key=lambda w: -rank.get(w, len(wings))):
        below = sorted(imports[wing], key=lambda w: -rank.get(w, len(wings)))
        lines.append(f"{wing:<{width}} -> {', '.join(below)}" if below else f"{wing:<{width}}    (imports no other wing)")
    return "```text\n" + "\n".join(lines) + "\n```\n"


def rule_stages():
    import re
    import textwrap

    text = open(os.path.join(ROOT, "skills-build/src/problem.rs"), encoding="utf-8").read()
    enum = text[text.index("pub enum Stage {") :]
    enum = enum[: enum.index("\n}")]
    stages = re.findall(r"(?m)^    ([A-Z][A-Za-z]*),$", enum)
    table = text[text.index("codes! {") :]
    rows = re.findall(r'(?m)^    [A-Z][A-Za-z0-9]* = "([a-z0-9-]+)", [A-Z][a-z]+, [A-Z][a-z]+, ([A-Z][a-z]+),$', table)
    by_stage = {stage: [] for stage in stages}
    for code, stage in rows:
        if stage not in by_stage:
            raise SystemExit(f"skills-build/src/problem.rs: {code} runs in {stage}, which is no Stage")
        by_stage[stage].append(code)
    width = max(len(stage) for stage in stages) + 6
    lines = []
    for stage in stages:
        codes = by_stage[stage]
        head = f"{stage.lower()} ({len(codes)})"
        wrapped = textwrap.wrap(", ".join(codes) or "(no rule)", 98 - width, break_on_hyphens=False)
        lines.append(f"{head:<{width}}{wrapped[0]}")
        lines.extend(" " * width + more for more in wrapped[1:])
    return "```text\n" + "\n".join(lines) + "\n```\n"


BLOCKS = {"crate graph": crate_graph, "core wings": core_wings, "rule stages": rule_stages}


def main():
    path = os.path.join(ROOT, DOC)
    text = open(path, encoding="utf-8").read()
    fixed = text
    for name, generate in BLOCKS.items():
        if begin(name) not in fixed or end(name) not in fixed:
            raise SystemExit(f"{DOC}: no `{begin(name).strip()}` ... `{end(name).strip()}` block")
        start = fixed.index(begin(name)) + len(begin(name))
        stop = fixed.index(end(name))
        fixed = fixed[:start] + generate() + fixed[stop:]
    if fixed == text:
        print(f"{DOC}: the crate graph, skills-core's wings and the rule stages are current")
        return 0
    if os.environ.get("SKILLS_BLESS"):
        open(path, "w", encoding="utf-8").write(fixed)
        print(f"{DOC}: rewritten")
        return 0
    sys.stdout.writelines(
        difflib.unified_diff(text.splitlines(True), fixed.splitlines(True), f"{DOC} (as written)", f"{DOC} (from the code)")
    )
    print(f"{DOC} is out of date; review the difference, then rerun with SKILLS_BLESS=1")
    return 1


if __name__ == "__main__":
    sys.exit(main())
