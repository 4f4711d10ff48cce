#!/usr/bin/env python3
"""agentskills-core's side of scripts/bench/catalog.sh: makes N skills in
DIR (when asked) and times get_skills_catalog with a tag filter and a
character budget; prints `sdk_ns=<ns per catalog> chars=<n>`."""
import asyncio
import sys
import time
from pathlib import Path


def make(root: Path, count: int) -> None:
    root.mkdir(parents=True, exist_ok=True)
    for i in range(count):
        d = root / f"skill-{i:04d}"
        d.mkdir(exist_ok=True)
        tag = "ops" if i % 2 == 0 else "dev"
        (d / "SKILL.md").write_text(
            f"---\nname: skill-{i:04d}\ndescription: Skill number {i} does one thing & does it well <really>.\n"
            f"version: \"1.{i}.0\"\nmetadata:\n  tags:\n    - {tag}\n    - Team-{i % 7}\n"
            f"when_to_use:\n  - The task is about item {i}\n---\n# Skill {i}\n\nDo the thing.\n"
        )


async def bench(root: Path, fmt: str, tag: str, max_chars: int) -> None:
    from agentskills_core import SkillRegistry
    from agentskills_fs import LocalFileSystemSkillProvider

    registry = SkillRegistry()
    provider = LocalFileSystemSkillProvider(root)
    await registry.register([(p.name, provider) for p in sorted(root.iterdir())])
    text = await registry.get_skills_catalog(format=fmt, tags=[tag], max_chars=max_chars)
    runs = 20
    start = time.perf_counter_ns()
    for _ in range(runs):
        await registry.get_skills_catalog(format=fmt, tags=[tag], max_chars=max_chars)
    print(f"sdk_ns={(time.perf_counter_ns() - start) / runs:.0f} chars={len(text)}")


if __name__ == "__main__":
    if sys.argv[1] == "make":
        make(Path(sys.argv[2]), int(sys.argv[3]))
    else:
        asyncio.run(bench(Path(sys.argv[2]), sys.argv[3], sys.argv[4], int(sys.argv[5])))
