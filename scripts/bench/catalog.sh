#!/usr/bin/env bash
# Benchmark: a filtered (tag), truncated (max_chars) catalog over 1,000
# skills rendered at run time by skills-runtime, against the precomputed
# default prompt, and against agentskills-core 0.7.0 rendering the same
# catalog (checked identical first). Prints the figures and the ratios.
#
#   scripts/bench/catalog.sh [COUNT] [FORMAT] [MAX_CHARS]
set -euo pipefail
cd "$(dirname "$0")/../.."
count=${1:-1000}
format=${2:-xml}
max_chars=${3:-20000}
tag=ops
python=$(scripts/record/setup-core-venv.sh)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$python" scripts/bench/catalog.py make "$dir/skills" "$count"
cargo build --quiet --release -p skills-cmd --bin skills && cargo build --quiet --release -p skills-build --example bench_catalog
dirs=("$dir"/skills/*)
ours=$(target/release/skills catalog --extensions --format "$format" --tag "$tag" --max-chars "$max_chars" "${dirs[@]}")
theirs=$("$python" -c "
import asyncio, sys
from pathlib import Path
from agentskills_core import SkillRegistry
from agentskills_fs import LocalFileSystemSkillProvider
async def main():
    r = SkillRegistry(); root = Path(sys.argv[1]); p = LocalFileSystemSkillProvider(root)
    await r.register([(d.name, p) for d in sorted(root.iterdir())])
    sys.stdout.write(await r.get_skills_catalog(format=sys.argv[2], tags=[sys.argv[3]], max_chars=int(sys.argv[4])))
asyncio.run(main())" "$dir/skills" "$format" "$tag" "$max_chars")
if [ "$ours" != "$theirs" ]; then
    echo "bench-catalog: the two catalogs differ" >&2
    exit 1
fi
rust=$(target/release/examples/bench_catalog "$dir/skills" "$format" "$tag" "$max_chars")
sdk=$("$python" scripts/bench/catalog.py bench "$dir/skills" "$format" "$tag" "$max_chars")
echo "catalogs identical ($format, tag=$tag, max_chars=$max_chars, $count skills)"
echo "rust: $rust"
echo "agentskills-core: $sdk"
python3 - "$rust" "$sdk" <<'PY'
import sys
fields = dict(kv.split("=") for kv in (sys.argv[1] + " " + sys.argv[2]).split())
render, prompt, sdk = float(fields["render_ns"]), float(fields["prompt_ns"]), float(fields["sdk_ns"])
print(f"run-time render: {render/1000:.1f} us; precomputed prompt: {prompt/1000:.2f} us; agentskills-core: {sdk/1000:.1f} us")
print(f"render / precomputed = {render/prompt:.1f}x; agentskills-core / render = {sdk/render:.0f}x")
PY
