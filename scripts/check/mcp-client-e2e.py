#!/usr/bin/env python3
"""Drives an MCP server end to end with the Python `mcp` client (2.3.0,
`mcp.Client` over stdio), new era: discover, skills/list (every page),
skills/get, resources/list (every page), resources/read of every resource
with its digest and size checked against skills/get, resources/directory/read
of every directory of every skill (every page; each entry a valid `Resource`,
a file's size and digest those of skills/get, the files found those of the
manifest), tools/list and tools/call of the `skill` tool (text and image).
Then the initialize era: the same reads and the tool. Exits non-zero on the
first failure.

    mcp-client-e2e.py COMMAND [ARG...]
    mcp-client-e2e.py http://127.0.0.1:PORT/mcp     # Streamable HTTP
    MCP_BEARER_TOKEN=TOKEN mcp-client-e2e.py http://...  # with a bearer token
"""
import asyncio
import base64
import hashlib
import os
import sys
from typing import Any

from mcp import Client, StdioServerParameters, types
from mcp.client.extension import advertise
from mcp.client.streamable_http import create_mcp_http_client, streamable_http_client
from pydantic import TypeAdapter

SKILLS = "io.modelcontextprotocol/skills"
ANY = TypeAdapter(dict[str, Any])


def check(condition, message):
    if not condition:
        raise SystemExit(f"mcp-client-e2e: FAILED: {message}")


class SkillsParams(types.RequestParams):
    cursor: str | None = None
    uri: str | None = None


class SkillsRequest(types.Request[SkillsParams, str]):
    """skills/list, skills/get or resources/directory/read: the Skills
    extension's methods, which the client has no verbs for."""


async def raw(client, method, params):
    request = SkillsRequest(method=method, params=SkillsParams(**params))
    return await client.session.send_request(request, ANY)


def content_bytes(content):
    if getattr(content, "text", None) is not None:
        return content.text.encode()
    return base64.b64decode(content.blob)


async def list_all_resources(client):
    """Every page of resources/list."""
    listed, cursor = [], None
    for _ in range(100000):
        page = await client.list_resources(cursor=cursor, cache_mode="bypass")
        listed += page.resources
        cursor = page.next_cursor
        if cursor is None:
            return listed
    raise SystemExit("mcp-client-e2e: FAILED: resources/list never ends")


async def read_all(client, manifests):
    checked = 0
    listed = await list_all_resources(client)
    listed_uris = {str(r.uri) for r in listed}
    check(len(listed_uris) == len(listed), "resources/list lists a resource twice")
    for skill in manifests:
        for entry in skill["resources"]:
            check(entry["uri"] in listed_uris, f"{entry['uri']} is in skills/get but not resources/list")
            result = await client.read_resource(entry["uri"])
            data = content_bytes(result.contents[0])
            check(len(data) == entry["size"], f"{entry['uri']}: {len(data)} bytes, manifest says {entry['size']}")
            digest = "sha256:" + hashlib.sha256(data).hexdigest()
            check(digest == entry["digest"], f"{entry['uri']}: digest {digest}, manifest says {entry['digest']}")
            checked += 1
    check(checked == len(listed_uris), f"{len(listed_uris)} resources listed, {checked} in the manifests")
    return checked


async def read_directory(client, uri):
    """Every entry of the directory at `uri`, every page."""
    entries, cursor = [], None
    for _ in range(100000):
        params = {"uri": uri} if cursor is None else {"uri": uri, "cursor": cursor}
        page = await raw(client, "resources/directory/read", params)
        check(page.get("resultType") == "complete", f"{uri}: {page}")
        entries += [types.Resource.model_validate(entry) for entry in page["resources"]]
        cursor = page.get("nextCursor")
        if cursor is None:
            return entries
    raise SystemExit(f"mcp-client-e2e: FAILED: {uri} never ends")


async def walk_directories(client, manifests):
    """Reads every directory of every skill from its root down, and checks
    that the files found are the manifest's, with its sizes and digests."""
    directories = 0
    for skill in manifests:
        root = skill["uri"].removesuffix("/SKILL.md")
        expected = {entry["uri"]: entry for entry in skill["resources"]}
        found, pending = {}, [root]
        while pending:
            directory = pending.pop()
            directories += 1
            for entry in await read_directory(client, directory):
                uri = str(entry.uri)
                check(uri.startswith(directory + "/") and "/" not in uri[len(directory) + 1:],
                      f"{uri} is not a direct child of {directory}")
                if entry.mime_type == "inode/directory":
                    pending.append(uri)
                    continue
                manifest = expected.get(uri)
                check(manifest is not None, f"{uri} is in {directory} but not in the manifest")
                digest = (entry.meta or {}).get("io.agentskills/digest")
                check(entry.size == manifest["size"] and digest == manifest["digest"],
                      f"{uri}: size {entry.size} and digest {digest}, manifest {manifest}")
                found[uri] = entry
        check(set(found) == set(expected), f"{root}: directories hold {sorted(found)}, manifest {sorted(expected)}")
    try:
        await raw(client, "resources/directory/read", {"uri": manifests[0]["uri"]})
    except Exception as error:  # the client raises the JSON-RPC error
        check("not a directory" in str(error), f"a file read as a directory: {error}")
    else:
        raise SystemExit("mcp-client-e2e: FAILED: a SKILL.md was read as a directory")
    return directories


async def call_tool(client, first_skill):
    tools = (await client.list_tools()).tools
    check([t.name for t in tools] == ["skill"], f"tools/list gave {[t.name for t in tools]}")
    result = await client.call_tool("skill", {"name": first_skill})
    check(not result.is_error and result.content[0].type == "text", f"skill({first_skill}) failed: {result}")
    refused = await client.call_tool("skill", {"name": "no-such-skill"})
    check(refused.is_error and "unknown skill" in refused.content[0].text, f"an unknown skill was not refused: {refused}")
    return result


async def modern(params):
    async with Client(params(), mode="auto", extensions=[advertise(SKILLS)]) as client:
        check(client.session.protocol_version == "2026-07-28", f"negotiated {client.session.protocol_version}")
        capabilities = client.server_capabilities
        extensions = capabilities.extensions or {}
        check(SKILLS in extensions, f"discover does not declare {SKILLS}: {capabilities}")
        check(extensions[SKILLS].get("directoryRead") is True, f"directoryRead is not declared: {extensions[SKILLS]}")
        entries, cursor = [], None
        for _ in range(1000):
            page = await raw(client, "skills/list", {} if cursor is None else {"cursor": cursor})
            entries += page["skills"]
            cursor = page.get("nextCursor")
            if cursor is None:
                break
        check(entries, "skills/list is empty")
        manifests = [(await raw(client, "skills/get", {"uri": e["uri"]}))["skill"] for e in entries]
        check(manifests == entries, "skills/get disagrees with skills/list")
        read = await read_all(client, manifests)
        directories = await walk_directories(client, manifests)
        await call_tool(client, entries[0]["frontmatter"]["name"])
        images = 0
        for skill in manifests:
            for entry in skill["resources"]:
                if entry["uri"].endswith(".png"):
                    path = entry["uri"].removeprefix(skill["uri"].removesuffix("SKILL.md"))
                    result = await client.call_tool("skill", {"name": skill["frontmatter"]["name"], "path": path})
                    check(result.content[0].type == "image", f"{entry['uri']} is not image content: {result}")
                    images += 1
        print(f"new era: {len(entries)} skills, {read} resources read and checked, {directories} directories read, tool called ({images} images)")
        return manifests


async def handshake(params, manifests):
    async with Client(params(), mode="legacy") as client:
        read = await read_all(client, manifests)
        await call_tool(client, manifests[0]["frontmatter"]["name"])
        print(f"initialize era: {read} resources read and checked, tool called")


def connection():
    """What each `Client` connects with: a fresh transport each time."""
    url = sys.argv[1]
    if not url.startswith(("http://", "https://")):
        return lambda: StdioServerParameters(command=sys.argv[1], args=sys.argv[2:])
    token = os.environ.get("MCP_BEARER_TOKEN")
    if not token:
        return lambda: url  # the client's Streamable HTTP transport
    headers = {"Authorization": f"Bearer {token}"}
    return lambda: streamable_http_client(url, http_client=create_mcp_http_client(headers=headers))


async def main():
    params = connection()
    manifests = await modern(params)
    await handshake(params, manifests)
    print("mcp-client-e2e: ok")


asyncio.run(main())
