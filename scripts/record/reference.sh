#!/usr/bin/env bash
# Record the reference CLI's behaviour for every conformance case.
#
# Usage: scripts/record/reference.sh [CASE...]
#
#   With no arguments, every directory under testdata/reference/ is recorded;
#   otherwise only the named cases (directory names, not paths).
#
# Each case directory testdata/reference/<case>/ holds:
#   cmd      the arguments after the program name, one per line
#   tree/    the files the command reads; the command runs with this as its cwd
# and this script (re)writes, from the real `agentskills` of PyPI skills-ref 0.1.1:
#   stdout   standard output, with the resolved absolute path of tree/ replaced by {TREE}
#   stderr   standard error, same substitution
#   status   the exit code followed by a newline
#
# Tracebacks also mention the venv and the Python installation; those prefixes
# become {VENV} and {PYTHON}. A case whose reference run crashes with a Python
# traceback must carry a `divergence` file explaining why our CLI deliberately
# behaves differently there (the Rust harness then compares against the
# hand-written ours.stdout / ours.stderr / ours.status instead). The script
# lists such cases lacking a `divergence` file and exits 1.
#
# The reference is installed on first use into the git-ignored venv .venv-ref
# at the repository root:
#   python3 -m venv .venv-ref && .venv-ref/bin/pip install skills-ref==0.1.1
#
# The run is deterministic: a minimal fixed environment (LC_ALL=C.UTF-8,
# PYTHONHASHSEED=0, COLUMNS=80 for click's help layout), stdin from /dev/null,
# stdout and stderr redirected to files (never a terminal).

set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)
cases_dir="$repo/testdata/reference"
venv="$repo/.venv-ref"

if [[ ! -x "$venv/bin/agentskills" ]]; then
    echo "record-reference: installing skills-ref==0.1.1 into $venv" >&2
    (cd "$repo" && python3 -m venv .venv-ref && .venv-ref/bin/pip install --quiet skills-ref==0.1.1)
fi

agentskills="$venv/bin/agentskills"
python="$venv/bin/python"
venv_real=$(cd "$venv" && pwd -P)
python_base=$("$python" -c 'import sys; print(sys.base_prefix)')

# Replace every occurrence of a literal byte string in a file, in place.
# Usage: substitute FILE FROM TO [FROM TO]...
substitute() {
    "$python" - "$@" <<'PY'
import sys
path, pairs = sys.argv[1], sys.argv[2:]
with open(path, "rb") as f:
    data = f.read()
for old, new in zip(pairs[0::2], pairs[1::2]):
    data = data.replace(
        old.encode("utf-8", "surrogateescape"), new.encode("utf-8", "surrogateescape")
    )
with open(path, "wb") as f:
    f.write(data)
PY
}

if [[ $# -gt 0 ]]; then
    cases=("$@")
else
    cases=()
    for dir in "$cases_dir"/*/; do
        dir=${dir%/}
        cases+=("${dir##*/}")
    done
fi

missing_divergence=()
recorded=0
for case in "${cases[@]}"; do
    dir="$cases_dir/$case"
    if [[ ! -f "$dir/cmd" || ! -d "$dir/tree" ]]; then
        echo "record-reference: $dir needs a cmd file and a tree/ directory" >&2
        exit 1
    fi
    args=()
    mapfile -t args <"$dir/cmd"
    tree=$(cd "$dir/tree" && pwd -P)

    status=0
    (
        cd "$tree"
        env -i \
            PATH=/usr/bin:/bin \
            HOME=/nonexistent \
            LC_ALL=C.UTF-8 \
            PYTHONHASHSEED=0 \
            PYTHONDONTWRITEBYTECODE=1 \
            COLUMNS=80 \
            "$agentskills" "${args[@]}" </dev/null >"$dir/stdout" 2>"$dir/stderr"
    ) || status=$?
    printf '%s\n' "$status" >"$dir/status"

    for stream in stdout stderr; do
        # Longest, most specific prefixes first.
        substitute "$dir/$stream" \
            "$venv_real" "{VENV}" \
            "$venv" "{VENV}" \
            "$python_base" "{PYTHON}" \
            "$tree" "{TREE}"
    done

    if grep -q 'Traceback (most recent call last)' "$dir/stderr" && [[ ! -f "$dir/divergence" ]]; then
        missing_divergence+=("$case")
    fi
    recorded=$((recorded + 1))
done

echo "record-reference: recorded $recorded case(s)" >&2
if [[ ${#missing_divergence[@]} -gt 0 ]]; then
    echo "record-reference: the reference crashed in these cases, which have no divergence file:" >&2
    printf '  %s\n' "${missing_divergence[@]}" >&2
    exit 1
fi
