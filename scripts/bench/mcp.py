#!/usr/bin/env python3
"""Requests per second and p50/p99 latency over stdio, one request at a
time (each reply awaited before the next request), for resources/read and
tools/call, against each server given, in one run. The requests are encoded
before the clock starts, so the driver costs each server the same: a write
and the reads of one reply line.

    mcp.py REQUESTS NAME=COMMAND... (COMMAND split on spaces)
"""
import json
import os
import subprocess
import sys
import time

ENVELOPE = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": {"name": "bench-mcp", "version": "1"},
    "io.modelcontextprotocol/clientCapabilities": {"extensions": {"io.modelcontextprotocol/skills": {}}},
}
CASES = [
    ("resources/read", {"uri": "skill://pdf-forms/reference.md"}),
    ("tools/call", {"name": "skill", "arguments": {"name": "pdf-forms", "path": "reference.md"}}),
]


class Connection:
    def __init__(self, command):
        self.process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
        )
        self.buffer = b""
        self.next_id = 0

    def line(self, method, params):
        """A request's bytes, encoded before any clock starts."""
        self.next_id += 1
        params = dict(params, _meta=ENVELOPE)
        line = json.dumps({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        return line.encode() + b"\n"

    def request(self, method, params):
        return self.send(self.line(method, params))

    def send(self, line):
        os.write(self.process.stdin.fileno(), line)
        fd = self.process.stdout.fileno()
        while b"\n" not in self.buffer:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                raise SystemExit(f"bench-mcp: the server closed stdout during {method}")
            self.buffer += chunk
        reply, _, self.buffer = self.buffer.partition(b"\n")
        return reply

    def close(self):
        self.process.stdin.close()
        self.process.wait(timeout=30)


def measure(command, method, params, count):
    connection = Connection(command)
    connection.request("server/discover", {})
    reply = json.loads(connection.request(method, params))
    for _ in range(min(200, count)):  # warm up
        connection.request(method, params)
    lines = [connection.line(method, params) for _ in range(count)]
    latencies = []
    clock = time.perf_counter
    started = clock()
    for line in lines:
        at = clock()
        connection.send(line)
        latencies.append(clock() - at)
    elapsed = time.perf_counter() - started
    connection.close()
    latencies.sort()
    result = reply.get("result") or {}
    answered = "error" if "error" in reply or result.get("isError") else "ok"
    return {
        "rps": count / elapsed,
        "p50": latencies[len(latencies) // 2] * 1e6,
        "p99": latencies[int(len(latencies) * 0.99)] * 1e6,
        "answered": answered,
    }


def main():
    count = int(sys.argv[1])
    servers = [arg.split("=", 1) for arg in sys.argv[2:]]
    rows = {}
    for method, params in CASES:
        for name, command in servers:
            rows[(method, name)] = measure(command.split(" "), method, params, count)
    print(f"{count} requests each, one at a time over stdio\n")
    print("| request | server | requests/s | p50 µs | p99 µs | reply |")
    print("|---|---|---:|---:|---:|---|")
    for (method, name), row in rows.items():
        print(f"| {method} | {name} | {row['rps']:,.0f} | {row['p50']:.0f} | {row['p99']:.0f} | {row['answered']} |")
    first = servers[0][0]
    print()
    for method, _ in CASES:
        for name, _ in servers[1:]:
            ratio = rows[(method, first)]["rps"] / rows[(method, name)]["rps"]
            print(f"{method}: {first} / {name} throughput = {ratio:.1f}x")


main()
