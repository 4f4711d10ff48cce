# Waits that wait for a condition, never for a fixed time; sourced by the
# scripts that start a server or need a newer file time.
#
#   . scripts/wait.sh
#   url=$(serving_url "$pid" "$stderr_file")   # `skills mcp --http` is up
#   clock_past "$file"                         # a write now gets a newer mtime

# The URL a `skills mcp --http` process (PID) prints on its stderr (FILE)
# once it listens. Waits as long as the process runs; if it exits first,
# prints its stderr and fails.
serving_url() {
    local pid=$1 file=$2 url=
    until [ -n "$url" ]; do
        if ! kill -0 "$pid" 2>/dev/null; then
            echo "the server exited before listening:" >&2
            cat "$file" >&2 2>/dev/null || true
            return 1
        fi
        # The file may not exist yet: the shell creates it in the child.
        url=$(sed -n 's/^skills mcp: serving //p' "$file" 2>/dev/null || true)
        [ -n "$url" ] || sleep 0.05
    done
    printf '%s\n' "$url"
}

# Waits until a file written now in FILE's folder gets a later
# modification time than FILE has, at the file system's own granularity
# (a second on some), so that a tool comparing times sees the next write
# as newer.
clock_past() {
    local file=$1 probe
    probe=$(mktemp "$(dirname "$file")/.clock.XXXXXX")
    until [ "$probe" -nt "$file" ]; do
        sleep 0.05
        touch "$probe"
    done
    rm -f "$probe"
}
