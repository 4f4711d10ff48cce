#!/usr/bin/env python3
"""Start-up and a 200-skill check: the npm package, the wheel, the native
binary and the Python reference, side by side (docs/benchmarks.md).

    scripts/bench/packages.py [RUNS]      # after scripts/check/packages.sh

Needs what scripts/check/packages.sh leaves: the npm package installed in
target/dist-check/npm-project, the wheel in target/dist-check/venv, the
native release binary target/release/skills; installs skills-ref 0.1.1 into
.venv-ref as scripts/record/reference.sh does, and reads wasmtime from
.venv-dist (scripts/dist/setup-venv.sh) for the route the wheel did not take:
the WASI module under wasmtime-py. The corpus is scripts/gen/corpus.py's 200
skills (seed 1, a fifth invalid), written under target/ (the WASI module sees
the working directory only).

Each case runs RUNS times (default 11), interleaved with the others; the
table gives the median wall time, the median CPU time (user + system of the
child, from wait4) and the ratio of each to the native binary's. Prints the
load average before and after.
"""

import os
import shutil
import statistics
import subprocess
import sys
import time

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))
CHECK = os.path.join(ROOT, "target", "dist-check")
NPM_BIN = os.path.join(CHECK, "npm-project", "node_modules", ".bin")
WHEEL_BIN = os.path.join(CHECK, "venv", "bin")
NATIVE = os.path.join(ROOT, "target", "release", "skills")
REF_BIN = os.path.join(ROOT, ".venv-ref", "bin")
DIST_BIN = os.path.join(ROOT, ".venv-dist", "bin")
WASM = os.path.join(ROOT, "target", "wasm32-wasip1", "release", "skills.wasm")
CORPUS = os.path.join(ROOT, "target", "bench-packages", "corpus")

# maturin's own WASI launcher, in substance (wasmtime-py, the working
# directory pre-opened), with the exit status passed on.
WASMTIME_LAUNCHER = r"""
import os, sys
from wasmtime import Engine, Store, Module, Linker, WasiConfig, ExitTrap
engine = Engine()
store = Store(engine)
wasi = WasiConfig()
wasi.argv = ["skills", *sys.argv[1:]]
wasi.env = [("PWD", os.getcwd())]
wasi.inherit_stdout(); wasi.inherit_stderr(); wasi.inherit_stdin()
wasi.preopen_dir(os.getcwd(), os.getcwd())
store.set_wasi(wasi)
linker = Linker(engine)
linker.define_wasi()
module = Module.from_file(engine, os.environ["SKILLS_WASM"])
instance = linker.instantiate(store, module)
try:
    instance.exports(store)["_start"](store)
except ExitTrap as exit:
    sys.exit(exit.code)
"""


def timed(argv, env=None):
    start = time.perf_counter()
    child = subprocess.Popen(argv, cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL, env=env)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    return wall, usage.ru_utime + usage.ru_stime, os.waitstatus_to_exitcode(status)


def loop(argvs, env=None):
    """One sample of a loop of commands: summed wall and CPU."""
    wall = cpu = 0.0
    for argv in argvs:
        w, c, _ = timed(argv, env)
        wall += w
        cpu += c
    return wall, cpu, 0


def main():
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 11
    if not os.path.exists(os.path.join(REF_BIN, "agentskills")):
        subprocess.run([sys.executable, "-m", "venv", os.path.join(ROOT, ".venv-ref")], check=True)
        subprocess.run([os.path.join(REF_BIN, "pip"), "install", "--quiet", "skills-ref==0.1.1"], check=True)
    shutil.rmtree(CORPUS, ignore_errors=True)
    subprocess.run([sys.executable, os.path.join(ROOT, "scripts/gen/corpus.py"), "200", CORPUS, "--seed", "1"],
                   check=True, stdout=subprocess.DEVNULL)
    skills = sorted(os.path.join(CORPUS, d) for d in os.listdir(CORPUS))
    node = shutil.which("node")
    node_version = subprocess.run([node, "--version"], capture_output=True, text=True).stdout.strip()
    launcher = os.path.join(ROOT, "target", "bench-packages", "wasmtime_launcher.py")
    with open(launcher, "w") as f:
        f.write(WASMTIME_LAUNCHER)
    wasmtime = [os.path.join(DIST_BIN, "python"), launcher]
    env = dict(os.environ, SKILLS_WASM=WASM)
    ref_validate = os.path.join(REF_BIN, "agentskills")
    cases = [
        ("start-up (`--version`)", [
            ("native binary", lambda: timed([NATIVE, "--version"])),
            (f"npm package (node:wasi, Node {node_version})", lambda: timed([os.path.join(NPM_BIN, "skills-cmd"), "--version"])),
            ("wheel `skills`", lambda: timed([os.path.join(WHEEL_BIN, "skills"), "--version"])),
            ("WASI module under wasmtime-py (not shipped)", lambda: timed(wasmtime + ["--version"], env)),
            ("reference `agentskills` (skills-ref 0.1.1)", lambda: timed([ref_validate, "--version"])),
        ]),
        ("`check` of 200 skills, one process", [
            ("native binary", lambda: timed([NATIVE, "check", CORPUS])),
            (f"npm package (node:wasi, Node {node_version})", lambda: timed([os.path.join(NPM_BIN, "skills-cmd"), "check", CORPUS])),
            ("wheel `skills`", lambda: timed([os.path.join(WHEEL_BIN, "skills"), "check", CORPUS])),
            ("WASI module under wasmtime-py (not shipped)", lambda: timed(wasmtime + ["check", CORPUS], env)),
        ]),
        ("`agentskills validate`, once per skill, 200 processes", [
            ("native binary as `agentskills`", lambda: loop([[os.path.join(WHEEL_BIN, "agentskills"), "validate", s] for s in skills])),
            (f"npm package `agentskills` (Node {node_version})", lambda: loop([[os.path.join(NPM_BIN, "agentskills"), "validate", s] for s in skills])),
            ("reference `agentskills` (skills-ref 0.1.1)", lambda: loop([[ref_validate, "validate", s] for s in skills])),
        ]),
    ]
    with open("/proc/loadavg") as f:
        load_before = f.read().split()[:3]
    samples = {}
    for _ in range(runs):
        for title, routes in cases:
            for name, run in routes:
                samples.setdefault((title, name), []).append(run()[:2])
    with open("/proc/loadavg") as f:
        load_after = f.read().split()[:3]
    print(f"runs {runs}; load average before {' '.join(load_before)}, after {' '.join(load_after)}")
    for title, routes in cases:
        print(f"\n{title}\n\n| route | wall (median) | CPU (median) |\n| --- | --- | --- |")
        base = None
        for name, _ in routes:
            walls = [w for w, _ in samples[(title, name)]]
            cpus = [c for _, c in samples[(title, name)]]
            wall, cpu = statistics.median(walls), statistics.median(cpus)
            if base is None:
                base = (wall, cpu)
                print(f"| {name} | {wall * 1000:.1f} ms | {cpu * 1000:.1f} ms |")
            else:
                print(f"| {name} | {wall * 1000:.1f} ms ({wall / base[0]:.1f}x) | {cpu * 1000:.1f} ms ({cpu / base[1]:.1f}x) |")


if __name__ == "__main__":
    main()
