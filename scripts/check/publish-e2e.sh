#!/usr/bin/env bash
# What `skills publish --well-known` and `skills plugin build` make, taken
# by the installers people use, from the npm registry (pinned, installed
# with Node 22 from scripts/node22.sh into the git-ignored .node-skills,
# DO_NOT_TRACK=1, HOME a scratch folder):
#
# 1. the published tree of testdata/skills served by `skills mcp --http
#    127.0.0.1:0 --well-known DIR` beside /mcp, checked by `skills verify
#    --well-known URL`, then installed by the npm `skills` CLI 1.7.4
#    (`skills add http://127.0.0.1:PORT/`) into a scratch project: every
#    installed file compared byte for byte with the source, and no file
#    missing or extra; the same through the 0.1 layout alone
#    (/.well-known/skills/, which 1.7.4 reads when there is no 0.2 index);
# 2. a plugin built from testdata/skills (with the Claude Code and Codex
#    adapters and a marketplace file), checked by `skills plugin check`,
#    installed from its local path by the same `skills` CLI (which reads
#    its skills/ and .claude-plugin/ files) and compared byte for byte, and
#    loaded by `plugins` 1.3.4 (`plugins discover DIR`, Vercel's open-plugin
#    installer), which must find the plugin by name with its 3 skills.
#
#   scripts/check/publish-e2e.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
. scripts/wait.sh

PATH="$(scripts/node22.sh):$PATH"
export DO_NOT_TRACK=1 DISABLE_TELEMETRY=1
tools=.node-skills
if [ ! -x "$tools/node_modules/.bin/skills" ] || [ ! -f "$tools/node_modules/plugins/dist/index.js" ] \
    || ! grep -q '"version": "1.7.4"' "$tools/node_modules/skills/package.json" \
    || ! grep -q '"version": "1.3.4"' "$tools/node_modules/plugins/package.json"; then
    mkdir -p "$tools"
    npm install --prefix "$tools" --no-audit --no-fund --loglevel=error \
        skills@1.7.4 plugins@1.3.4 >/dev/null
fi
npx_skills=$PWD/$tools/node_modules/.bin/skills
plugins_cli=$PWD/$tools/node_modules/plugins/dist/index.js
cargo build --quiet -p skills-cmd --bin skills
skills=$PWD/target/debug/skills
work=$(mktemp -d)
http_pid=
trap '[ -z "$http_pid" ] || kill "$http_pid" 2>/dev/null || true; rm -rf "$work"' EXIT
export HOME=$work/home
mkdir -p "$HOME"

serve() {
    : >"$work/http.err"
    "$skills" mcp testdata/skills --http 127.0.0.1:0 --well-known "$1" 2>"$work/http.err" &
    http_pid=$!
    url=$(serving_url "$http_pid" "$work/http.err") || exit 1
    origin=${url%/mcp}
}
stop() {
    kill -TERM "$http_pid"
    wait "$http_pid" || { echo "publish-e2e: the server did not exit 0 on SIGTERM" >&2; exit 1; }
    http_pid=
}
# Every file of testdata/skills/NAME equals the installed copy under DIR,
# and the copy holds nothing else.
same_as_source() {
    local dir=$1 names
    names=$(cd testdata/skills && ls)
    for name in $names; do
        if ! diff -r "testdata/skills/$name" "$dir/$name" >/dev/null; then
            echo "publish-e2e: $dir/$name differs from testdata/skills/$name:" >&2
            diff -r "testdata/skills/$name" "$dir/$name" >&2 || true
            exit 1
        fi
        echo "   $name: $(cd "testdata/skills/$name" && find . -type f | wc -l) files, byte for byte"
    done
    [ "$(ls "$dir")" = "$names" ] || { echo "publish-e2e: $dir holds $(ls "$dir"), not $names" >&2; exit 1; }
}
install_into() {
    local project=$1 source=$2
    mkdir -p "$project"
    (cd "$project" && "$npx_skills" add "$source" -y --agent claude-code --skill '*' >"$work/npx.log" 2>&1) \
        || { cat "$work/npx.log" >&2; exit 1; }
}

echo "== skills publish --well-known (0.2.0 and the 0.1 layout), twice: the same bytes"
"$skills" publish --well-known "$work/site" --legacy testdata/skills 2>/dev/null
"$skills" publish --well-known "$work/again" --legacy testdata/skills 2>/dev/null
diff -r "$work/site" "$work/again"

echo "== served beside /mcp, checked by skills verify --well-known URL"
serve "$work/site"
"$skills" verify --well-known "$origin/"
echo "== npm skills 1.7.4 installs from $origin/ (0.2.0 index)"
install_into "$work/project" "$origin/"
same_as_source "$work/project/.claude/skills"
stop

echo "== the 0.1 layout alone: npm skills 1.7.4 installs from /.well-known/skills/"
mkdir -p "$work/legacy/.well-known"
cp -r "$work/site/.well-known/skills" "$work/legacy/.well-known/"
serve "$work/legacy"
install_into "$work/project-legacy" "$origin/"
same_as_source "$work/project-legacy/.claude/skills"
stop

echo "== skills plugin build (adapters, marketplace), plugin check, and the real consumers"
"$skills" plugin build testdata/skills -o "$work/plugin" --name e2e-skills --version 1.0.0 \
    --description "The test skills" --author "skills e2e" --license MIT \
    --adapter claude-code --adapter codex --marketplace 2>/dev/null
"$skills" plugin check "$work/plugin"
"$skills" plugin build testdata/skills -o "$work/plugin" --name e2e-skills --version 1.0.0 \
    --description "The test skills" --author "skills e2e" --license MIT \
    --adapter claude-code --adapter codex --marketplace --check
echo "== npm skills 1.7.4 installs the plugin from its local path"
install_into "$work/project-plugin" "$work/plugin"
same_as_source "$work/project-plugin/.claude/skills"
echo "== plugins 1.3.4 discovers the plugin from its local path"
node "$plugins_cli" discover "$work/plugin" >"$work/plugins.log" 2>&1 || { cat "$work/plugins.log" >&2; exit 1; }
grep -Eq 'e2e-skills +3 skills +The test skills' "$work/plugins.log" \
    || { echo "publish-e2e: plugins discover did not find e2e-skills with 3 skills:" >&2; cat "$work/plugins.log" >&2; exit 1; }
echo "   plugins found e2e-skills, 3 skills"
echo "publish-e2e: ok"
