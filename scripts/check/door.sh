#!/usr/bin/env bash
# The door from the CLI into the compiler (`skills_build::unstable`) is the
# size of its use: with it private, rustc finds no unused item outside the
# door itself, so nothing compiled into a user's build script or macro is
# there for the CLI alone (docs/architecture.md, "The door"). The door's
# own functions (what only the CLI calls) are the door, and are listed.
#
#   scripts/check/door.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
out=$(RUSTFLAGS="--cfg skills_door_private" cargo check -q -p skills-build --all-features \
    --target-dir target/door-check --message-format short 2>&1 || true)
if grep -q "^error" <<<"$out"; then
    echo "$out" >&2
    echo "door.sh: skills-build does not build with its door private" >&2
    exit 1
fi
unused=$(grep -E "warning: .* (is|are) never (used|constructed|read)" <<<"$out" || true)
outside=$(grep -v "^skills-build/src/unstable.rs:" <<<"$unused" || true)
inside=$(grep -c "^skills-build/src/unstable.rs:" <<<"$unused" || true)
if [ -n "$outside" ]; then
    echo "$outside" >&2
    echo "door.sh: items outside skills_build::unstable that only the CLI uses: move them into skills-cmd, or into the door" >&2
    exit 1
fi
echo "door.sh: with the door private, 0 unused items outside it ($inside door functions only the CLI calls)"
