#!/usr/bin/env bash
# Worst-case cost of hostile input, side by side for each `skills` binary
# given: wall time and peak memory (`/usr/bin/time`), under a hang guard
# (TIMEOUT seconds, default 60) and a memory cap (CAP_MB, default 4096 MB of
# address space), so a binary that reads without end is stopped, not the
# machine. Prints one row per case and binary.
#
#   scripts/bench/hostile.sh /tmp/main-before-target/release/skills target/release/skills
#
# The inputs (made in a scratch directory, removed afterwards): sparse files
# of 2 GB (no disk used), 30 of 15 MiB in one skill, a FIFO and a /dev/zero link as SKILL.md and as a
# key file, SKILL.md files with 80,000 and 400,000 metadata keys, 65,536
# skills whose names all want one slot of the name table, `**/` patterns on
# a 30-deep tree, a 1 MB skill name, a keygen whose public key cannot be
# written; and for every content rule, its worst input at 0.25, 0.5, 1, 2
# and 4 MB (`skills check`), with the time per MB, which stays flat where
# the rule is linear (SIZES overrides the sizes, in MB; CONTENT_ONLY=1 runs
# these alone). Needs python3 (to write the inputs) and GNU time.
set -euo pipefail

if [ "$#" -eq 0 ]; then
    echo "usage: scripts/bench/hostile.sh SKILLS_BINARY..." >&2
    exit 2
fi
timeout_s="${TIMEOUT:-60}"
cap_mb="${CAP_MB:-4096}"
bins=()
for bin in "$@"; do
    bins+=("$(realpath "$bin")")
done
here="$(cd "$(dirname "$0")/../.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/skills-measure.XXXXXX")"
trap 'rm -rf "$work"' EXIT
cd "$work"

skill() { # DIR NAME: a small valid skill
    mkdir -p "$1"
    printf -- '---\nname: %s\ndescription: Does %s things.\n---\nBody.\n' "$2" "$2" >"$1/SKILL.md"
}

if [ "${CONTENT_ONLY:-0}" != 1 ]; then
# 1. Sizes: a 2 GB sparse file beside a skill file, and as the skill file.
skill sparse/skills/demo demo
truncate -s 2G sparse/skills/demo/big.bin
skill many/skills/demo demo
for i in $(seq 10 39); do truncate -s 15M "many/skills/demo/part$i.bin"; done
mkdir -p sparse-md/demo
truncate -s 2G sparse-md/demo/SKILL.md
truncate -s 2G big.key
# 2. Special files.
mkdir -p fifo/demo zero/demo
mkfifo fifo/demo/SKILL.md
ln -s /dev/zero zero/demo/SKILL.md
mkfifo key.fifo
# 3. Metadata keys; 4. colliding names; 8. a long name.
python3 - "$here" <<'PY'
import os, sys

def fm(keys):
    return "".join(f"  key{i}: value{i}\n" for i in range(keys))

for keys in (80_000, 400_000):
    os.makedirs(f"keys{keys}/skills/meta", exist_ok=True)
    with open(f"keys{keys}/skills/meta/SKILL.md", "w") as f:
        f.write(f"---\nname: meta\ndescription: Many metadata keys.\nmetadata:\n{fm(keys)}---\nBody.\n")

# FNV-1a's low bits depend only on the low bits before each step: two chunks
# that agree there can be swapped, and 16 such choices give 65,536 names
# that all want one slot of a 131,072-slot table.
def step(h, data):
    for b in data:
        h = ((h ^ b) * 0x01000193) & 0xFFFFFFFF
    return h

alphabet = b"abcdefghijklmnopqrstuvwxyz0123456789"
mask = (1 << 17) - 1
state = step(0x811C9DC5, b"s")
pairs = []
for _ in range(16):
    seen = {}
    found = None
    for a in alphabet:
        for b in alphabet:
            for c in alphabet:
                chunk = bytes([a, b, c])
                low = step(state, chunk) & mask
                if low in seen:
                    found = (seen[low], chunk)
                    break
                seen[low] = chunk
            if found:
                break
        if found:
            break
    pairs.append(found)
    state = step(state, found[0])
for choice in range(1 << 16):
    name = "s" + "".join(
        (pair[1] if choice >> at & 1 else pair[0]).decode() for at, pair in enumerate(pairs)
    )
    os.makedirs(f"names/skills/{name}")
    with open(f"names/skills/{name}/SKILL.md", "w") as f:
        f.write(f"---\nname: {name}\ndescription: d\n---\nb\n")

os.makedirs("long/big", exist_ok=True)
with open("long/big/SKILL.md", "w") as f:
    f.write("---\nname: " + "a" * 1_000_000 + "\ndescription: d\n---\nb\n")
PY
# 5. A 30-deep tree for `**/` patterns.
skill deep/skills/deep deep
deep_dir="deep/skills/deep/$(printf 'd/%.0s' $(seq 30))"
mkdir -p "$deep_dir"
echo leaf >"$deep_dir/leaf.md"
stars() { printf '**/%.0s' $(seq "$1"); printf 'nomatch'; }

fi

# 9. Each content rule's worst input, at each size: a skill whose SKILL.md
# body (or one file) is the pattern repeated.
sizes="${SIZES:-0.25 0.5 1 2 4}"
python3 - "$sizes" <<'PY'
import os, sys

# Each size as the shell writes it (the folders are named so).
sizes = sys.argv[1].split()
def noise(n, seed):
    # Base64-ish characters, varied enough to look random to the rules.
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    out, x = [], seed
    for _ in range(n):
        x = (x * 1103515245 + 12345) & 0x7FFFFFFF
        out.append(alphabet[(x >> 8) % 64])
    return "".join(out)

# case: (file the pattern goes in, the pattern)
cases = {
    "links, one a line": ("SKILL.md", "[x](gone.md)\n"),
    "links, one line": ("SKILL.md", "[x](gone.md) "),
    "brackets (parser memory)": ("SKILL.md", "[ [ [ [ [ [ [ [ "),
    "nested brackets, one line": ("SKILL.md", "[[[[[[[[x]("),
    "backticks and emphasis": ("SKILL.md", "` *a _b <c "),
    "html comments": ("SKILL.md", "<!-- x --> "),
    "private-key BEGIN lines": ("keys.txt", "-----BEGIN RSA PRIVATE KEY-----\n"),
    "private-key, no END": ("open.pem", None),
    "AWS ids, one line": ("ids.txt", "AKIAQ7RZ2KP3WMX4VN6B "),
    "tokens' prefixes": ("tokens.txt", "ghp_ xoxb- sk-ant- a-b_c "),
    "pipe-to-shell, one line": ("run.sh", "curl | x iex ( "),
    "home paths": ("notes.txt", "/home/alice/x "),
    "URLs": ("urls.txt", "http://45.33.32.156/x "),
    "bidi and invisible": ("SKILL.md", "a\u202eb c\u200bd "),
    "base64 runs": ("SKILL.md", None),
}
for size in sizes:
    total = int(float(size) * 1024 * 1024)
    for number, (case, (name, pattern)) in enumerate(cases.items()):
        folder = f"rules/{number}/{size}/demo"
        os.makedirs(folder, exist_ok=True)
        if case == "private-key, no END":
            text = "-----BEGIN RSA PRIVATE KEY-----\n" + (noise(64, 1) + "\n") * (total // 65)
        elif case == "base64 runs":
            text = (noise(255, 2) + " ") * (total // 256)
        else:
            text = pattern * (total // len(pattern.encode()))
        front = "---\nname: demo\ndescription: Does demo things. Use when testing.\n---\n"
        with open(f"{folder}/SKILL.md", "w") as f:
            f.write(front + (text if name == "SKILL.md" else f"See `{name}`.\n"))
        if name != "SKILL.md":
            with open(f"{folder}/{name}", "w") as f:
                f.write(text)
    with open("rules/cases.txt", "w") as f:
        f.write("\n".join(cases) + "\n")
PY

if [ "${CONTENT_ONLY:-0}" != 1 ]; then
# A bundle of the colliding names, written by the last binary given (the
# fixed one when it comes last), for `inspect`.
"${bins[-1]}" build names/skills -o names.bundle >/dev/null 2>&1 || true

for at in "${!bins[@]}"; do
    echo "binary #$((at + 1)): ${bins[$at]}"
done
printf '%-44s  %-6s  %9s  %9s  %s\n' case binary seconds "peak MB" result
run_case() { # LABEL NUMBER BIN ARGS...
    local label="$1" number="$2" bin="$3"
    shift 3
    local status=0
    (
        ulimit -v $((cap_mb * 1024))
        exec /usr/bin/time -f '%e %M' -o "$work/time.txt" timeout "$timeout_s" "$bin" "$@"
    ) >"$work/out.txt" 2>"$work/err.txt" </dev/null || status=$?
    local seconds peak result
    read -r seconds peak <<<"$(grep -E '^[0-9.]+ [0-9]+$' "$work/time.txt" | tail -1 || echo '- 0')"
    case "$status" in
        124) result="hung: stopped after ${timeout_s}s" ;;
        134 | 137) result="aborted (memory cap ${cap_mb} MB or out of memory)" ;;
        *) result="exit $status, stderr $(wc -c <"$work/err.txt") bytes" ;;
    esac
    printf '%-44s  %-6s  %9s  %9s  %s\n' "$label" "#$number" "$seconds" "$((peak / 1024))" "$result"
}

for at in "${!bins[@]}"; do
    bin="${bins[$at]}"
    n=$((at + 1))
    run_case "1 build: 2 GB sparse file beside SKILL.md" "$n" "$bin" build sparse/skills -o out.bundle
    run_case "1 build: 30 sparse files of 15 MiB" "$n" "$bin" build many/skills -o out.bundle
    run_case "1 revision: 30 sparse files of 15 MiB" "$n" "$bin" revision many/skills/demo
    run_case "1 validate: 2 GB sparse SKILL.md" "$n" "$bin" validate sparse-md/demo
    run_case "1 sign --key: 2 GB sparse key file" "$n" "$bin" sign --key big.key --origin x sparse/skills/demo
    run_case "2 check: FIFO SKILL.md" "$n" "$bin" check fifo/demo
    run_case "2 validate: FIFO SKILL.md" "$n" "$bin" validate fifo/demo
    run_case "2 validate: SKILL.md -> /dev/zero" "$n" "$bin" validate zero/demo
    run_case "2 sign --key FIFO" "$n" "$bin" sign --key key.fifo --origin x sparse/skills/demo
    run_case "2 sign --key /dev/zero" "$n" "$bin" sign --key /dev/zero --origin x sparse/skills/demo
    run_case "3 build: 80,000 metadata keys" "$n" "$bin" build keys80000/skills -o out.bundle
    run_case "3 build: 400,000 metadata keys" "$n" "$bin" build keys400000/skills -o out.bundle
    run_case "3 validate: 80,000 metadata keys" "$n" "$bin" validate keys80000/skills/meta
    run_case "4 build: 65,536 colliding names" "$n" "$bin" build names/skills -o out.bundle
    run_case "4 inspect: 65,536 colliding names" "$n" "$bin" inspect names.bundle
    run_case "5 build --exclude '**/' x8, 30 deep" "$n" "$bin" build deep/skills -o out.bundle --exclude "$(stars 8)"
    run_case "5 build --exclude '**/' x10, 30 deep" "$n" "$bin" build deep/skills -o out.bundle --exclude "$(stars 10)"
    run_case "8 validate: 1 MB skill name" "$n" "$bin" validate long/big
    rm -f "$work/left.pem"
    "$bin" keygen "$work/left.pem" --public "$work/no/such/dir/left.pub.pem" >/dev/null 2>&1 || true
    if [ -e "$work/left.pem" ]; then left="secret key left behind"; else left="nothing left behind"; fi
    printf '%-44s  %-6s  %9s  %9s  %s\n' "8 keygen, public key unwritable" "#$n" - - "$left"
done

fi

# The content rules: seconds per MB at each size, per binary.
printf '\n%-30s  %-6s' "content rule (skills check)" binary
for size in $sizes; do printf '  %9s' "${size}MB s/MB"; done
printf '  %s\n' "peak MB at the largest"
for at in "${!bins[@]}"; do
    bin="${bins[$at]}"
    n=$((at + 1))
    number=0
    while read -r case; do
        printf '%-30s  %-6s' "$case" "#$n"
        peak=0
        for size in $sizes; do
            status=0
            (
                ulimit -v $((cap_mb * 1024))
                exec /usr/bin/time -f '%e %M' -o "$work/time.txt" timeout "$timeout_s" "$bin" check "rules/$number/$size/demo"
            ) >/dev/null 2>&1 </dev/null || status=$?
            read -r seconds peak <<<"$(grep -E '^[0-9.]+ [0-9]+$' "$work/time.txt" | tail -1 || echo '- 0')"
            if [ "$status" = 124 ]; then
                printf '  %9s' "hung"
            elif [ "$status" -gt 1 ]; then
                printf '  %9s' "exit $status"
            else
                printf '  %9s' "$(python3 -c "print(f'{$seconds / $size:.3f}')")"
            fi
        done
        printf '  %s\n' "$((peak / 1024))"
        number=$((number + 1))
    done <rules/cases.txt
done
