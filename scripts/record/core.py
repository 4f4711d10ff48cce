#!/usr/bin/env python3
"""Records agentskills-core 0.7.0's outputs over the testdata skills into
testdata/core/, for the byte-for-byte conformance tests.

Run through scripts/record/core.sh (it makes the .venv-core venv). Each
line of testdata/core/cases.tsv is one case, tab-separated:

    catalog   FILE  STATUS  ARG...        (ARGs as `skills catalog` takes them)
    outline   FILE  STATUS  DIR
    section   FILE  STATUS  SET SKILL KEY
    fastpath  FILE  STATUS  SET INCLUDE|- MAX_TOKENS
    resources FILE  STATUS  SET SKILL
    envelope  FILE  STATUS  SET SKILL KIND NAME MAX_INLINE
    manifest  FILE  STATUS  SET SKILL PREFIX|-

STATUS is `ok` (FILE holds the output, exactly) or `error` (FILE holds the
SDK's error message) or `none` (the fast path declined). SET is a directory
of skills, compiled as one bundle by the tests.
"""
import asyncio
import json
import sys
from pathlib import Path

# The shared pinned table sits in scripts/, one folder up.
sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[1]))
import pinned_mimetypes  # noqa: E402

# The pinned media-type table (scripts/pinned_mimetypes.py), never the host's.
pinned_mimetypes.pin()

from agentskills_core import (  # noqa: E402
    SkillRegistry,
    build_skill_manifest,
    capture_skill,
    encode_resource_content,
    resolve_fast_path,
)
from agentskills_fs import LocalFileSystemSkillProvider  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "testdata/core"
CORE = "testdata/core/skills"
BASE = "testdata/skills"


async def registry_of(dirs, skip_invalid=False):
    registry = SkillRegistry()
    for d in dirs:
        path = ROOT / d
        try:
            await registry.register(path.name, LocalFileSystemSkillProvider(path.parent))
        except ValueError:
            if not skip_invalid:
                raise
    return registry


def skill_dirs(root):
    return sorted(f"{root}/{p.name}" for p in (ROOT / root).iterdir() if (p / "SKILL.md").is_file())


def parse_catalog_args(args):
    opts = {"format": "skills-ref", "include": None, "exclude": None, "tags": None,
            "max_chars": None, "selection_hints": True, "total": None}
    dirs = []
    it = iter(args)
    for a in it:
        if a == "--format":
            opts["format"] = next(it)
        elif a in ("--include", "--exclude", "--tag"):
            key = {"--include": "include", "--exclude": "exclude", "--tag": "tags"}[a]
            opts[key] = (opts[key] or []) + [next(it)]
        elif a == "--max-chars":
            opts["max_chars"] = int(next(it))
        elif a == "--total":
            opts["total"] = int(next(it))
        elif a == "--no-hints":
            opts["selection_hints"] = False
        elif a == "--extensions":
            pass
        else:
            dirs.append(a)
    return dirs, opts


cases = []


def case(kind, name, *args):
    cases.append((kind, name, list(args)))


# Catalogs: both SDK shapes, over the core set and the base set.
core = skill_dirs(CORE)
# agentskills-core's validator wants `compatibility` as a mapping and
# `allowed-tools` as a list (the specification says strings), so it refuses
# testdata/skills/pdf-forms; the base set's catalogs leave it out.
base = [d for d in skill_dirs(BASE) if not d.endswith("/pdf-forms")]
for fmt in ("xml", "markdown"):
    case("catalog", f"{fmt}-core", "--format", fmt, "--extensions", *core)
    case("catalog", f"{fmt}-base", "--format", fmt, *base)
    case("catalog", f"{fmt}-no-hints", "--format", fmt, "--extensions", "--no-hints", *core)
    case("catalog", f"{fmt}-include", "--format", fmt, "--extensions", "--include", "forms", "--include", "plain", *core)
    case("catalog", f"{fmt}-include-unknown", "--format", fmt, "--extensions", "--include", "zeta", "--include", "alpha", "--include", "forms", *core)
    case("catalog", f"{fmt}-exclude-wins", "--format", fmt, "--extensions", "--include", "forms", "--exclude", "forms", "--exclude", "nope", *core)
    case("catalog", f"{fmt}-tag-pdf", "--format", fmt, "--extensions", "--tag", " pdf ", *core)
    case("catalog", f"{fmt}-tag-vcs", "--format", fmt, "--extensions", "--tag", "vcs", "--tag", "GUIDE", *core)
    case("catalog", f"{fmt}-tag-none", "--format", fmt, "--extensions", "--tag", "nomatch", *core)
    case("catalog", f"{fmt}-tag-blank", "--format", fmt, "--extensions", "--tag", "  ", *core)
    case("catalog", f"{fmt}-total", "--format", fmt, "--extensions", "--include", "git-tools", "--total", "5", *core)
    case("catalog", f"{fmt}-total-small", "--format", fmt, "--extensions", "--total", "1", *core)
    for max_chars in (10, 57, 60, 200, 400, 700, 1000, 5000):
        case("catalog", f"{fmt}-max-{max_chars}", "--format", fmt, "--extensions", "--max-chars", str(max_chars), *core)
    case("catalog", f"{fmt}-max-total", "--format", fmt, "--extensions", "--max-chars", "300", "--total", "9", "--tag", "git", *core)
    case("catalog", f"{fmt}-empty-include", "--format", fmt, "--extensions", "--exclude", "forms", "--exclude", "git-tools", "--exclude", "long-guide", "--exclude", "plain", *core)

for d in core + base:
    case("outline", "outline-" + Path(d).name, d)

for key in ("preamble", "pdf-forms", "setup", "setup-2", "deep-dive", "section", "c-and-caf-n-code", "nope"):
    case("section", f"section-forms-{key}", CORE, "forms", key)
for key in ("chapter-1-skill-more", "details-4", "preamble", "missing"):
    case("section", f"section-long-{key}", CORE, "long-guide", key)
case("section", "section-plain-preamble", CORE, "plain", "preamble")
case("section", "section-base-rebasing", BASE, "git-rebase", "rebasing")

case("fastpath", "fastpath-git-tools", CORE, "git-tools", "300")
case("fastpath", "fastpath-forms", CORE, "forms", "300")
case("fastpath", "fastpath-forms-tight", CORE, "forms", "10")
case("fastpath", "fastpath-long", CORE, "long-guide", "300")
case("fastpath", "fastpath-all", CORE, "-", "300")
case("fastpath", "fastpath-unknown-ignored", CORE, "git-tools,nope", "300")
case("fastpath", "fastpath-base-csv", BASE, "csv-report", "300")

for skill in ("forms", "plain", "git-tools"):
    case("resources", f"resources-{skill}", CORE, skill)
for kind, name in (("assets", "logo.png"), ("assets", "blob.bin"), ("assets", "photo.dat"),
                   ("assets", "table.csv"), ("references", "fields.md"), ("scripts", "fill.py")):
    for limit in ("65536", "0", "9"):
        case("envelope", f"envelope-{name}-{limit}", CORE, "forms", kind, name, limit)

for skill in ("plain",):
    case("manifest", f"manifest-{skill}", CORE, skill, "-")
    case("manifest", f"manifest-{skill}-prefixed", CORE, skill, "acme/tools")
case("manifest", "manifest-forms", CORE, "forms", "-")
for skill in ("csv-report", "git-rebase"):
    case("manifest", f"manifest-{skill}", BASE, skill, "-")


async def run(kind, args):
    """(status, text) of one case."""
    if kind == "catalog":
        dirs, opts = parse_catalog_args(args)
        registry = await registry_of(dirs)
        fmt = opts.pop("format")
        return "ok", await registry.get_skills_catalog(format=fmt, **opts)
    if kind == "outline":
        registry = await registry_of(args)
        outline = await registry.get_skill_outline(Path(args[0]).name)
        return "ok", outline.render() + "\n"
    registry = await registry_of(skill_dirs(args[0]), skip_invalid=True)
    if kind == "section":
        return "ok", await registry.get_skill_section(args[1], args[2])
    if kind == "fastpath":
        include = None if args[1] == "-" else args[1].split(",")
        fast = await resolve_fast_path(registry, include=include, max_tokens=int(args[2]))
        return ("none", "") if fast is None else ("ok", fast.prompt)
    skill = registry.get_skill(args[1])
    provider = LocalFileSystemSkillProvider(ROOT / args[0])
    if kind == "resources":
        return "ok", json.dumps(await provider.list_resources(args[1]))
    if kind == "envelope":
        getter = {"assets": provider.get_asset, "references": provider.get_reference,
                  "scripts": provider.get_script}[args[2]]
        data = await getter(args[1], args[3])
        return "ok", encode_resource_content(args[3], data, max_inline_binary_bytes=int(args[4]))
    if kind == "manifest":
        snapshot = await capture_skill(skill)
        path = None if args[2] == "-" else f"{args[2]}/{args[1]}"
        manifest = build_skill_manifest(snapshot, skill_path=path)
        return "ok", json.dumps(manifest, ensure_ascii=False, separators=(",", ":"))
    raise ValueError(kind)


async def main():
    lines = []
    for kind, name, args in cases:
        try:
            status, text = await run(kind, args)
        except Exception as error:  # the SDK's message is the recording
            status, text = "error", str(error)
            if text.startswith("'") and text.endswith("'") and type(error).__name__ == "SkillNotFoundError":
                text = text[1:-1]
        path = OUT / kind / f"{name}.txt"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode("utf-8"))
        lines.append("\t".join([kind, f"{kind}/{name}.txt", status, *args]))
    (OUT / "cases.tsv").write_text("\n".join(lines) + "\n")
    print(f"recorded {len(lines)} cases into {OUT.relative_to(ROOT)}", file=sys.stderr)


asyncio.run(main())
