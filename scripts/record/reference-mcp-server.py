#!/usr/bin/env python3
"""Starts agentskills-mcp-server 0.7.0 over stdio on the skill folders given,
with the pinned media-type table of scripts/pinned_mimetypes.py (never
the host's /etc/mime.types) and the skills/list page size from $PAGE_SIZE (default 100).

    reference-mcp-server.py SKILL_DIR...
"""
import asyncio
import os
import sys
from pathlib import Path
from urllib.parse import quote

# Python puts this script's folder first on the path, where yaml.py (the
# strictyaml recorder) would shadow PyYAML, which agentskills-core imports.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
# The shared pinned table sits in scripts/, one folder up.
sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[1]))
import pinned_mimetypes  # noqa: E402

# The pinned media-type table (scripts/pinned_mimetypes.py), never the host's.
pinned_mimetypes.pin()

from agentskills_core import Skill  # noqa: E402
from agentskills_fs import LocalFileSystemSkillProvider  # noqa: E402
from agentskills_mcp_server import create_mcp_server  # noqa: E402


def uri(folder):
    """The skill's SKILL.md URI: the order skills/list sorts by, and the
    order given here, which resources/list keeps."""
    return f"skill://{quote(Path(folder).name, safe='')}/SKILL.md"


async def build():
    handles = []
    for d in sorted(sys.argv[1:], key=uri):
        path = Path(d).resolve()
        handles.append(Skill(path.name, LocalFileSystemSkillProvider(path.parent)))
    return await create_mcp_server(handles, page_size=int(os.environ.get("PAGE_SIZE", "100")))


asyncio.run(build()).run(transport="stdio")
