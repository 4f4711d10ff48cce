#!/usr/bin/env bash
# The npm package and the PyPI wheel, tested as users install them:
# scripts/dist/build.sh builds both into target/dist/; the tarball goes into
# a scratch npm project (`npm install ./skills-cmd-VERSION.tgz`) and the wheel
# into a scratch venv; the reference CLI's recordings (testdata/reference/)
# run through each `agentskills`, and scripts/check/same-output.py compares
# each `skills` with the native binary over testdata/ (output, exit codes,
# SARIF, bundles). The npm package runs on Node 22 (scripts/node22.sh) and,
# for a sample of the recordings, on the machine's own `node` too when it
# is Node 20 or later. Last, the publish dry runs: `npm publish --dry-run` and `twine check`.
#
#   scripts/check/packages.sh
set -euo pipefail
cd "$(dirname "$0")/../.."

node22="$(scripts/node22.sh)"
machine_node=$(command -v node || true)
export PATH="$node22:$PATH"
mapfile -t built < <(scripts/dist/build.sh 2>/dev/null)
tgz=${built[0]}
wheel=${built[1]}
bin=$(scripts/dist/setup-venv.sh)

scratch=target/dist-check
rm -rf "$scratch"
mkdir -p "$scratch/npm-project"
(
    cd "$scratch/npm-project"
    npm init --yes >/dev/null
    npm install --no-audit --no-fund --loglevel=error "$tgz" >/dev/null
)
npm_bin="$PWD/$scratch/npm-project/node_modules/.bin"
python3 -m venv "$scratch/venv"
"$scratch/venv/bin/pip" install --quiet --disable-pip-version-check --no-index "$wheel"
wheel_bin="$PWD/$scratch/venv/bin"
cmp "$wheel_bin/skills" "$wheel_bin/agentskills"

# The reference recordings, through each package's `agentskills`.
for agentskills in "$npm_bin/agentskills" "$wheel_bin/agentskills"; do
    SKILLS_CLI_UNDER_TEST="$agentskills" cargo test --quiet -p skills-cmd --test it reference_cli::
done
if [ -n "$machine_node" ] && "$machine_node" -e 'process.exit(+process.versions.node.split(".")[0] >= 20 ? 0 : 1)'; then
    # A sample (every `valid-` and `cli-` case): the full run is Node 22's.
    PATH="$(dirname "$machine_node"):$PATH" SKILLS_CLI_UNDER_TEST="$npm_bin/agentskills" \
        SKILLS_REFERENCE_CASES=valid-,cli- cargo test --quiet -p skills-cmd --test it reference_cli::
fi
# Byte for byte the native binary's output over testdata/.
python3 scripts/check/same-output.py --native target/release/skills "$npm_bin/skills-cmd" "$wheel_bin/skills"

# Publishing, dry: what `npm publish` would send, and the wheel's metadata.
(cd target/dist/npm && npm publish --dry-run --loglevel=error >/dev/null 2>&1) || {
    (cd target/dist/npm && npm publish --dry-run)
    exit 1
}
"$bin/twine" check --strict "$wheel"
