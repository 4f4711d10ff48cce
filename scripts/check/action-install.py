#!/usr/bin/env python3
"""The action's way to the `skills` CLI (scripts/action/install-cli.sh),
against a release served on 127.0.0.1 (no network): the asset for the
action's own ref is installed when its SHA-256 matches SHA256SUMS; a
checksum that differs, or an asset SHA256SUMS does not list, installs
nothing and fails; a ref that is no release, a runner without an asset, or
a release without the asset falls back to compiling, and the compile uses
the toolchain of the action's own rust-toolchain.toml (with stand-ins for
rustup and cargo that record what they were asked) unless the cache
restored the binary already.

    scripts/check/action-install.py
"""

import hashlib
import http.server
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
SCRIPT = ROOT / "scripts/action/install-cli.sh"
VERSION = tomllib.loads((ROOT / "Cargo.toml").read_text())["workspace"]["package"]["version"]
CHANNEL = tomllib.loads((ROOT / "rust-toolchain.toml").read_text())["toolchain"]["channel"]
TARGET = "x86_64-unknown-linux-gnu"
ASSET = f"skills-{TARGET}"
BINARY = b"#!/bin/sh\necho 'skills, version from the release'\n"

failures = []


def check(condition, what):
    if not condition:
        failures.append(what)
        print(f"FAIL: {what}", file=sys.stderr)


class Release(http.server.BaseHTTPRequestHandler):
    """Serves `files` (URL path to bytes) and records every request."""

    files = {}
    requests = []

    def do_GET(self):
        Release.requests.append(self.path)
        body = Release.files.get(self.path)
        if body is None:
            self.send_error(404)
            return
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def publish(ref, asset=BINARY, sums=None):
    """The release `ref` with the asset and SHA256SUMS (right unless given)."""
    if sums is None:
        sums = f"{hashlib.sha256(asset).hexdigest()}  {ASSET}\n"
    Release.files = {
        f"/acme/skills/releases/download/{ref}/{ASSET}": asset,
        f"/acme/skills/releases/download/{ref}/SHA256SUMS": sums.encode(),
    }
    Release.requests = []


def run(scratch, base, mode, **env):
    """Runs the script's `mode`: (exit status, stderr, GITHUB_OUTPUT's lines, installed binary)."""
    out = scratch / "github-output"
    out.write_text("")
    root = scratch / "root"
    environment = {
        "PATH": os.environ["PATH"],
        "HOME": str(scratch),
        "RUNNER_OS": "Linux",
        "RUNNER_ARCH": "X64",
        "SKILLS_ACTION_PATH": str(ROOT),
        "SKILLS_ACTION_REF": f"v{VERSION}",
        "SKILLS_REPOSITORY": "acme/skills",
        "SKILLS_ROOT": str(root),
        "SKILLS_RELEASES": f"{base}/acme/skills/releases/download",
        "GITHUB_OUTPUT": str(out),
    }
    environment.update(env)
    done = subprocess.run(
        [str(SCRIPT), mode], env=environment, capture_output=True, text=True, timeout=120
    )
    binary = root / "bin/skills"
    return done.returncode, done.stderr, out.read_text().splitlines(), binary


def main():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Release)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    ref = f"v{VERSION}"
    with tempfile.TemporaryDirectory() as tmp:
        scratch = Path(tmp)

        # The release asset, checked and installed.
        publish(ref)
        code, err, outputs, binary = run(scratch, base, "download")
        check(code == 0, f"download: exit {code}: {err}")
        check("installed=download" in outputs, f"download: outputs {outputs}")
        check(any(line.startswith("cache-key=skills-cli-Linux-X64-") for line in outputs), f"cache key: {outputs}")
        check(binary.read_bytes() == BINARY if binary.exists() else False, "download: the asset installed")
        check(os.access(binary, os.X_OK), "download: executable")
        check(f"SHA-256 {hashlib.sha256(BINARY).hexdigest()} checked" in err, f"download: {err}")
        key = [line for line in outputs if line.startswith("cache-key=")]
        shutil.rmtree(scratch / "root")

        # The same sources give the same cache key.
        code, err, outputs, _ = run(scratch, base, "download")
        check(key == [line for line in outputs if line.startswith("cache-key=")], "the cache key is stable")
        shutil.rmtree(scratch / "root")

        # A checksum that differs: nothing installed, a failure, no fallback.
        publish(ref, sums=f"{'0' * 64}  {ASSET}\n")
        code, err, outputs, binary = run(scratch, base, "download")
        check(code == 1, f"bad checksum: exit {code}")
        check("but SHA256SUMS says 0000" in err, f"bad checksum: {err}")
        check(not binary.exists(), "bad checksum: nothing installed")
        check("installed=download" not in outputs and "installed=" not in outputs, f"bad checksum: {outputs}")

        # An asset SHA256SUMS does not list: the same.
        publish(ref, sums=f"{'1' * 64}  skills-other-target\n")
        code, err, outputs, binary = run(scratch, base, "download")
        check(code == 1 and "lists no " + ASSET in err, f"unlisted asset: exit {code}: {err}")
        check(not binary.exists(), "unlisted asset: nothing installed")

        # A release without the asset (404): fall back to compiling.
        publish("v0.0.0")
        code, err, outputs, binary = run(scratch, base, "download")
        check(code == 0 and "installed=" in outputs, f"no release: exit {code}, {outputs}: {err}")
        check(not binary.exists(), "no release: nothing installed")

        # A ref that is no release (a branch): no request at all.
        publish(ref)
        code, err, outputs, _ = run(scratch, base, "download", SKILLS_ACTION_REF="main")
        check(code == 0 and "installed=" in outputs, f"branch: {outputs}: {err}")
        check(Release.requests == [], f"branch: requests {Release.requests}")

        # A runner no asset is built for.
        code, err, outputs, _ = run(scratch, base, "download", RUNNER_OS="FreeBSD")
        check(code == 0 and "installed=" in outputs and Release.requests == [], f"runner: {outputs}")

        # No github.action_ref (composite actions are not promised one):
        # the ref and repository from the runner's _actions/OWNER/NAME/REF.
        action = scratch / "_actions/acme/skills" / ref
        (action / "skills-cmd").mkdir(parents=True)
        for name in ["skills-cmd/Cargo.toml", "rust-toolchain.toml", "Cargo.toml", "Cargo.lock"]:
            shutil.copy(ROOT / name, action / name)
        code, err, outputs, binary = run(
            scratch, base, "download", SKILLS_ACTION_PATH=str(action), SKILLS_ACTION_REF="", SKILLS_REPOSITORY=""
        )
        check(code == 0 and "installed=download" in outputs, f"ref from the path: {outputs}: {err}")
        shutil.rmtree(scratch / "root", ignore_errors=True)

        # compile: the pinned toolchain, through stand-ins for rustup and cargo.
        tools = scratch / "tools"
        tools.mkdir()
        log = scratch / "tools.log"
        (tools / "rustup").write_text(f'#!/bin/sh\necho "rustup $*" >> {log}\n')
        (tools / "cargo").write_text(
            "#!/bin/sh\n"
            f'echo "cargo $* toolchain=$RUSTUP_TOOLCHAIN" >> {log}\n'
            'root=$(echo "$*" | sed -n "s/.*--root \\([^ ]*\\).*/\\1/p")\n'
            'mkdir -p "$root/bin" && printf "#!/bin/sh\\necho compiled\\n" > "$root/bin/skills" && chmod +x "$root/bin/skills"\n'
        )
        for tool in ["rustup", "cargo"]:
            (tools / tool).chmod(0o755)
        path = f"{tools}:{os.environ['PATH']}"
        code, err, _, binary = run(scratch, base, "compile", PATH=path)
        calls = log.read_text().splitlines() if log.exists() else []
        check(code == 0 and binary.exists(), f"compile: exit {code}: {err}")
        check(calls[:1] == [f"rustup toolchain install {CHANNEL} --profile minimal --no-self-update"], f"compile: {calls}")
        check(
            len(calls) == 2
            and calls[1].startswith(f"cargo install --locked --quiet --path {ROOT}/skills-cmd --root ")
            and calls[1].endswith(f"toolchain={CHANNEL}"),
            f"compile: {calls}",
        )
        # The cache restored the binary: nothing compiled.
        log.unlink()
        code, err, _, _ = run(scratch, base, "compile", PATH=path)
        check(code == 0 and not log.exists() and "from the cache" in err, f"cached: {err}")
    server.shutdown()

    # action.yml runs both modes, with the variables the script reads.
    action = (ROOT / "action.yml").read_text()
    for needed in [
        '/scripts/action/install-cli.sh" download',
        '/scripts/action/install-cli.sh" compile',
        "SKILLS_ACTION_REF: ${{ github.action_ref }}",
        "SKILLS_REPOSITORY: ${{ github.action_repository }}",
        "key: ${{ steps.cli.outputs.cache-key }}",
        "if: ${{ steps.cli.outputs.installed == '' }}",
    ]:
        check(needed in action, f"action.yml: {needed}")
    if failures:
        print(f"action-install: {len(failures)} failed", file=sys.stderr)
        sys.exit(1)
    print("action-install: the download, checksum and fallback paths behave")


if __name__ == "__main__":
    main()
