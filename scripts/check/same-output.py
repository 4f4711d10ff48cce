#!/usr/bin/env python3
"""The packaged commands print what the native binary prints, byte for byte.

Runs every case with the native `skills` and with each candidate (the npm
package's `skills-cmd` under Node's WASI, the wheel's `skills`), in the
same working directory, and compares stdout, stderr, the exit status and
any file the case writes. The cases cover testdata/: every tree under
testdata/reference/ through `check --format sarif`, and the sample skill
folders through every WASI command and output format. Prints one line per
mismatch; exits 1 if there was any.

    scripts/check/same-output.py --native target/release/skills CANDIDATE...
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))
FOLDERS = ["testdata/skills", "testdata/skills-v2"] + [
    f"testdata/bundle/{name}"
    for name in sorted(os.listdir(os.path.join(ROOT, "testdata/bundle")))
    if os.path.isdir(os.path.join(ROOT, "testdata/bundle", name))
]


# The commands the WASI build leaves out (docs/ci.md): the top-level help of
# the npm package lists every other command, as the native binary does.
# `keygen` is left out because WASI cannot make its secret key private.
NATIVE_ONLY = {"mcp", "install", "status", "uninstall", "extract", "keygen"}


def without_native_only(help_text):
    """`skills --help` less the entries of the native-only commands."""
    kept, skipping = [], False
    for line in help_text.split(b"\n"):
        if line.startswith(b"  ") and not line.startswith(b"   "):
            skipping = line.split()[0].decode() in NATIVE_ONLY
        elif not line.startswith(b"   "):
            skipping = False
        if not skipping:
            kept.append(line)
    return b"\n".join(kept)


def cases():
    """(working directory, arguments, the folder {COPY} copies or None)."""
    for name in sorted(os.listdir(os.path.join(ROOT, "testdata/reference"))):
        tree = os.path.join("testdata/reference", name, "tree")
        if os.path.isdir(os.path.join(ROOT, tree)):
            yield tree, ["check", "--format", "sarif", "."], None
    for folder in FOLDERS:
        for fmt in ["human", "json", "github", "sarif"]:
            yield ".", ["check", "--format", fmt, folder], None
            yield ".", ["audit", "--format", fmt, folder], None
        yield ".", ["check", "--deny-warnings", "--extensions", folder], None
        yield ".", ["fmt", "--check", folder], None
        yield ".", ["build", "--format", "json", "-o", "{OUT}", folder], None
        for skill in sorted(os.listdir(os.path.join(ROOT, folder))):
            path = os.path.join(folder, skill)
            if os.path.isdir(path):
                for command in ["validate", "read-properties", "to-prompt"]:
                    yield ".", [command, path], None
    # An absolute path inside the working directory (WASI resolves it from
    # the pre-opened directory: skills_build's real_path).
    yield ".", ["check", "--format", "sarif", os.path.join(ROOT, "testdata/skills")], None
    yield ".", ["to-prompt", os.path.join(ROOT, "testdata/skills/pdf-forms")], None
    # `fmt` writing, on a fresh copy of each folder ({COPY}); the files it
    # leaves are compared too (the last folder is one it rewrites).
    for folder in FOLDERS + ["testdata/reference/valid-all-fields-prompt/tree"]:
        yield ".", ["fmt", "{COPY}"], folder
    # A bundle, as `inspect`, `verify` and `audit` read one.
    yield ".", ["build", "-o", "{OUT}", "testdata/skills"], None
    for command in [["inspect"], ["verify", "--require-signature", "no"], ["audit"]]:
        yield ".", command + ["{BUNDLE}"], None
    # Usage errors and help go through the same parser (the top-level help
    # of the WASI build lacks the native-only commands, and only them).
    for args in [["--help"], ["--version"], ["check", "--format", "xml", "x"], ["no-such-command"], ["check"]]:
        yield ".", args, None


def tree_bytes(top):
    """Every file under `top`, by relative path, with its bytes."""
    files = {}
    for dirpath, _, names in os.walk(top):
        for name in names:
            path = os.path.join(dirpath, name)
            with open(path, "rb") as f:
                files[os.path.relpath(path, top)] = f.read()
    return sorted(files.items())


def run(program, cwd, args, scratch, bundle, copy_of=None):
    out = os.path.join(scratch, "out.bundle")
    if os.path.exists(out):
        os.remove(out)
    copy = os.path.join(scratch, "copy")
    shutil.rmtree(copy, ignore_errors=True)
    if copy_of is not None:
        shutil.copytree(os.path.join(ROOT, copy_of), copy)
    args = [a.replace("{OUT}", out).replace("{BUNDLE}", bundle).replace("{COPY}", copy) for a in args]
    done = subprocess.run(
        program + args,
        cwd=os.path.join(ROOT, cwd),
        stdin=subprocess.DEVNULL,
        capture_output=True,
    )
    written = None
    if os.path.exists(out):
        with open(out, "rb") as f:
            written = f.read()
    if copy_of is not None:
        written = tree_bytes(copy)
    return done.returncode, done.stdout, done.stderr, written


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--native", required=True)
    parser.add_argument("candidates", nargs="+")
    options = parser.parse_args()
    options.candidates = [os.path.abspath(c) for c in options.candidates]
    native = [os.path.abspath(options.native)]
    # Bundles and outputs go to a scratch folder inside the repository:
    # the WASI module sees the working directory only.
    scratch = tempfile.mkdtemp(prefix="same-output-", dir=os.path.join(ROOT, "target"))
    bundle = os.path.join(scratch, "skills.bundle")
    subprocess.run(native + ["build", "-o", bundle, "testdata/skills"], cwd=ROOT, check=True, capture_output=True)
    failures = 0
    count = 0
    try:
        for cwd, args, copy_of in cases():
            count += 1
            expected = run(native, cwd, args, scratch, bundle, copy_of)
            for candidate in options.candidates:
                got = run([candidate], cwd, args, scratch, bundle, copy_of)
                want = expected
                if args == ["--help"] and got[1] != expected[1]:
                    want = (expected[0], without_native_only(expected[1])) + expected[2:]
                if got != want:
                    failures += 1
                    fields = [n for n, a, b in zip(["status", "stdout", "stderr", "written file"], want, got) if a != b]
                    print(f"differs ({', '.join(fields)}): {candidate} {' '.join(args)} (in {cwd})")
                    for name, a, b in zip(["status", "stdout", "stderr"], want, got):
                        if a != b:
                            print(f"  {name}: native {a if isinstance(a, int) else a[:300]!r}\n  {name}: candidate {b if isinstance(b, int) else b[:300]!r}")
    finally:
        shutil.rmtree(scratch)
    print(f"same-output: {count} cases x {len(options.candidates)} candidates, {failures} mismatches")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
