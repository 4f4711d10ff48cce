#!/usr/bin/env python3
"""Drives an MCP server over stdio with the fixed request list in
testdata/mcp/requests.json and writes every reply to testdata/mcp/recorded.json.

Run through scripts/record/mcp.sh, which starts agentskills-mcp-server 0.7.0
(the reference) over the same skills our tests serve. One server process per
session; requests are sent one at a time and each reply is awaited (a
notification gets none). The replay test in skills-mcp-server sends the same
list to our server and compares.

    mcp.py OUT -- COMMAND...   (COMMAND gets PAGE_SIZE in its environment)
"""
import json
import os
import select
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
REPLY_TIMEOUT = 5.0


def substitute(value, envelope, cursor):
    if value == "$envelope":
        return envelope
    if value == "$nextCursor":
        return cursor
    if isinstance(value, dict):
        return {k: substitute(v, envelope, cursor) for k, v in value.items()}
    if isinstance(value, list):
        return [substitute(v, envelope, cursor) for v in value]
    return value


def read_line(process, buffer):
    """One line of the server's stdout, or None after REPLY_TIMEOUT."""
    fd = process.stdout.fileno()
    while b"\n" not in buffer:
        ready, _, _ = select.select([fd], [], [], REPLY_TIMEOUT)
        if not ready:
            return None, buffer
        chunk = os.read(fd, 1 << 20)
        if not chunk:
            return None, buffer
        buffer += chunk
    line, _, rest = buffer.partition(b"\n")
    return line, rest


def run_session(session, envelope, command):
    env = dict(os.environ, PAGE_SIZE=str(session["page_size"]))
    process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
    buffer = b""
    cursor = None
    replies = []
    try:
        for exchange in session["exchanges"]:
            send = substitute(exchange["send"], envelope, cursor)
            line = send if isinstance(send, str) else json.dumps(send, separators=(",", ":"), ensure_ascii=False)
            process.stdin.write(line.encode() + b"\n")
            process.stdin.flush()
            if exchange.get("reply", True) is False:
                replies.append({"name": exchange["name"], "reply": None})
                continue
            raw, buffer = read_line(process, buffer)
            reply = None if raw is None else json.loads(raw)
            if isinstance(reply, dict):
                cursor = (reply.get("result") or {}).get("nextCursor", cursor)
            # The exact line too: the `skills` arrays are compared byte for byte.
            replies.append({"name": exchange["name"], "reply": reply, "raw": None if raw is None else raw.decode()})
    finally:
        process.stdin.close()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    return {"name": session["name"], "replies": replies}


def main():
    out = Path(sys.argv[1])
    command = sys.argv[sys.argv.index("--") + 1:]
    requests = json.loads((ROOT / "testdata/mcp/requests.json").read_text())
    sessions = [run_session(s, requests["envelope"], command) for s in requests["sessions"]]
    out.write_text(json.dumps({"server": "agentskills-mcp-server 0.7.0", "sessions": sessions}, indent=1, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
