#!/usr/bin/env bash
# `skills mcp --http` under slow and silent clients, in one run per server:
# quiet throughput (keep-alive clients reading resources) and the latency of
# new clients, then the same with SLOW sockets held open that send part of a
# head and a byte a second, or nothing (skills-mcp-server/examples/
# http_slow_clients.rs prints both, their ratio and a verdict: new clients
# answered within 1 s, throughput at least half the quiet figure).
#
# Servers, one after the other, over the same bundle (N generated skills,
# scripts/gen/corpus.py, release builds):
#   cli        skills mcp --http 127.0.0.1:0 --bundle FILE (default options:
#              a runtime thread per core)
#   threads-1  examples/http_serve.rs: the same transport on one thread (a
#              current-thread runtime), to compare the runtimes.
#
#   scripts/bench/http.sh [N [CLIENTS [SECONDS [SLOW]]]]   # default 1000 8 10 600
set -euo pipefail
cd "$(dirname "$0")/../.."
. scripts/gen/scale-corpus.sh
n=${1:-1000}
clients=${2:-8}
seconds=${3:-10}
slow=${4:-600}
corpus=$(scale_corpus "$n")
cargo build --quiet --release -p skills-cmd --bin skills
cargo build --quiet --release -p skills-mcp-server --features http \
    --example http_slow_clients --example http_serve
work=$(mktemp -d)
server_pid=""
cleanup() {
    [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
# The driver holds SLOW sockets and the server as many: room for both.
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
status=0
target/release/skills build "$corpus" -o "$work/skills.bin" --keep-going 2>/dev/null || status=$?
[ "$status" = 0 ] || [ "$status" = 3 ] || { echo "bench-http: build failed ($status)" >&2; exit 1; }

echo "bench-http: $(nproc) cores, N=$n generated skills, bundle $(stat -c %s "$work/skills.bin") bytes, release"
verdict=0
for server in cli threads-1; do
    case $server in
        cli) target/release/skills mcp --http 127.0.0.1:0 --bundle "$work/skills.bin" 2>"$work/err" & ;;
        threads-1) target/release/examples/http_serve "$work/skills.bin" 1 2>"$work/err" & ;;
    esac
    server_pid=$!
    url=""
    for _ in $(seq 600); do
        url=$(sed -n 's/^skills mcp: serving //p' "$work/err")
        [ -n "$url" ] && break
        kill -0 "$server_pid" 2>/dev/null || break
        sleep 0.1
    done
    [ -n "$url" ] || { cat "$work/err" >&2; exit 1; }
    addr=${url#http://}
    addr=${addr%/mcp}
    echo "== $server"
    target/release/examples/http_slow_clients "$addr" "$clients" "$seconds" "$slow" || verdict=1
    echo "server peak memory: $(awk '/VmHWM/ {print $2, $3}' "/proc/$server_pid/status")"
    kill -TERM "$server_pid"
    wait "$server_pid" || { echo "bench-http: $server did not exit 0 on SIGTERM" >&2; verdict=1; }
    server_pid=""
done
exit "$verdict"
