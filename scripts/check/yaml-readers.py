#!/usr/bin/env python3
"""What other YAML readers make of the canonical form `skills fmt` writes.

Two jobs, run with the interpreter of scripts/record/setup-yaml-venv.sh:

  yaml-readers.py record
      Asks PyYAML 6.0.3 (YAML 1.1) and ruamel.yaml 0.18.16 (YAML 1.2, safe
      loader) what each candidate scalar is when written plain, as a value
      (`k: S`) and as a key (`S: v`), and writes
      testdata/yaml-readers/not-text.tsv (the scalars some reader reads as
      something other than the same text, with each reader's verdict) and
      testdata/yaml-readers/text.tsv (the candidates both read as text).
      skills-cmd's test `recorded_readers` checks the quoting rule against
      both files.

  yaml-readers.py fmt-check SKILLS
      The property test: SKILL.md files (every one under testdata/, one
      generated per candidate scalar, quoted in each way YAML allows, and
      one per value holding a literal U+0085, U+2028 or U+2029) are
      formatted by `SKILLS fmt`, and the frontmatter of each result must read
      as the original's does under strictyaml (every scalar text) under all
      three readers: strictyaml, PyYAML and ruamel.yaml 1.2; but for the
      fields a coding agent reads as a bool (HOST_BOOLS), whose `true` and
      `false` the YAML 1.1 and 1.2 readers read as the bool the host reads.

The candidates: every casing of YAML's boolean and null words and of the
special floats, every string of up to 3 characters over `0189._:-+eExob`
and of 4 over `01._:-+e`, and the forms the YAML 1.1 and 1.2 type
repositories list (ints in every base, floats, base 60, timestamps).
"""
import itertools
import json
import pathlib
import shutil
import subprocess
import sys
import tempfile

import strictyaml
import yaml
from ruamel.yaml import YAML

ROOT = pathlib.Path(__file__).resolve().parents[2]
OUT = ROOT / "testdata" / "yaml-readers"

WORDS = ["true", "false", "yes", "no", "on", "off", "y", "n", "null", ".inf", "+.inf",
         "-.inf", ".nan", "+.nan", "-.nan"]
FORMS = [
    "~", "<<", "=", "1_000", "0o17", "0o8", "0x1F", "0x_1f", "0xG", "0b101", "0b2", "+0b1",
    "1e3", "1E+3", "1.5e-3", "1e", "+12", "-0", "1:20", "190:20:30", "190:20:30.15", "1:60",
    "12:5", "-1:20", "1.10", "007", "08", "09", "6.8523015e+5", "685.230_15e+03",
    "685_230.15", ".5", "+.5", "-.5e3", "1.", "1.e5", "1.0", "2.5.1", "v1.0", "1.0-beta",
    "2001-12-14", "2001-1-1", "2001-12-1", "2001-12-14t21:59:43.10-05:00",
    "2001-12-14 21:59:43.10 -5", "2001-12-14T21:59:43Z", "2001-12-14 21:59:43",
    "2001-13-45", "2001-12-14T1:59:43.1+05:30", "2001-12-14T21:59", "20011214",
    "12:30:45", "0:0", "MIT", "Apache-2.0", "pdf", "Fills PDF forms.", "yes please",
    "not null", "true story", "NaN", "inf", "Infinity", "0", "00", "0.", "-", "+", ".",
    "--", "- x", "_", "__", "1__", "+_", "0b", "0x", "0o",
]


# Values holding a character YAML 1.1 reads as a line break (U+0085,
# U+2028, U+2029), alone, inside words, and at either end.
BREAK_CASES = [f"{before}{c}{after}" for c in ["\x85", "\u2028", "\u2029"]
               for before, after in [("", ""), ("a", "b"), ("a ", " b"), ("", "x"), ("x", "")]]


def casings(word):
    letters = [(c.lower(), c.upper()) if c.isalpha() else (c,) for c in word]
    return {"".join(p) for p in itertools.product(*letters)}


def candidates():
    out = set(FORMS)
    for word in WORDS:
        out |= casings(word)
    for n in range(1, 4):
        out |= {"".join(p) for p in itertools.product("0189._:-+eExob", repeat=n)}
    out |= {"".join(p) for p in itertools.product("01._:-+e", repeat=4)}
    return sorted(out)


def ruamel_loader():
    loader = YAML(typ="safe", pure=True)
    loader.version = (1, 2)
    return loader


RUAMEL = ruamel_loader()


def verdict(load, text, as_key):
    doc = f"{text}: v\n" if as_key else f"k: {text}\n"
    try:
        data = load(doc)
    except Exception as error:  # noqa: BLE001 - any refusal is a verdict
        return "error:" + type(error).__name__
    if not isinstance(data, dict) or len(data) != 1:
        return "not-a-mapping"
    (key, value), = data.items()
    got = key if as_key else value
    if isinstance(got, str) and got == text:
        return "str"
    return type(got).__name__


def readers():
    return {"pyyaml": yaml.safe_load, "yaml12": RUAMEL.load}


def record():
    OUT.mkdir(parents=True, exist_ok=True)
    not_text, text = [], []
    for s in candidates():
        row = [json.dumps(s, ensure_ascii=False)]
        for load in readers().values():
            row.append(verdict(load, s, False) + "/" + verdict(load, s, True))
        (text if all(v == "str/str" for v in row[1:]) else not_text).append(row)
    header = "# scalar (JSON)\tPyYAML 6.0.3 value/key\truamel.yaml 0.18.16 (1.2) value/key\n"
    note = "# Regenerate: scripts/record/yaml-readers.sh\n"
    for name, rows in [("not-text.tsv", not_text), ("text.tsv", text)]:
        with open(OUT / name, "w", encoding="utf-8") as f:
            f.write(note + header)
            for row in rows:
                f.write("\t".join(row) + "\n")
    print(f"recorded {len(not_text)} scalars some reader reads as not text, "
          f"{len(text)} both read as text", file=sys.stderr)


def frontmatter(text):
    # As the reference splits a skill file: between the first two `---`.
    return text.split("---", 2)[1]


def strict(text):
    return json.loads(json.dumps(strictyaml.load(text).data))


def generated(s):
    single = "'" + s.replace("'", "''") + "'"
    double = json.dumps(s, ensure_ascii=False)
    return (f"---\nname: case\ndescription: {single}\nlicense: {double}\n"
            f"compatibility: {single}\nmetadata:\n  {single}: {double}\n  plain: {single}\n"
            f"---\nBody.\n")


# The top-level fields a coding agent reads as a bool (skills-build's
# hosts::fields, Kind::Bool): `skills fmt` keeps their `true` and `false`
# plain, so YAML 1.1 and 1.2 readers read the bool the host reads.
HOST_BOOLS = {"disable-model-invocation", "user-invocable", "user-invokable", "background"}
BOOL_SPELLINGS = {"true": True, "True": True, "TRUE": True,
                  "false": False, "False": False, "FALSE": False}


def as_hosts_read(reading):
    """A strict reading as a YAML 1.1/1.2 reader reads fmt's output."""
    return {key: BOOL_SPELLINGS[value]
            if key in HOST_BOOLS and isinstance(value, str) and value in BOOL_SPELLINGS
            else value
            for key, value in reading.items()}


def fmt_check(skills):
    work = pathlib.Path(tempfile.mkdtemp(prefix="fmt-readers-"))
    try:
        files = {}
        # Every scalar some reader reads as not text, and one in eight of
        # the others (the run stays short).
        not_text = {json.loads(line.split("\t")[0])
                    for line in (OUT / "not-text.tsv").read_text(encoding="utf-8").splitlines()
                    if not line.startswith("#")}
        for i, s in enumerate(candidates()):
            if "---" in s or (s not in not_text and i % 8):
                continue
            files[f"gen-{i}"] = generated(s)
        # What YAML 1.1 reads as a line break and YAML 1.2 as text, written
        # literally inside quotes (PyYAML refuses it written plain).
        breaks = {}
        for i, s in enumerate(BREAK_CASES):
            breaks[f"break-{i}"] = generated(s)
        files.update(breaks)
        for i, path in enumerate(sorted(ROOT.glob("testdata/**/SKILL.md"))):
            if not path.is_file() or path.is_symlink():
                continue
            try:
                files[f"rec-{i}"] = path.read_bytes().decode("utf-8")
            except UnicodeDecodeError:
                continue
        originals = {}
        for name, text in files.items():
            try:
                reading = strict(frontmatter(text))
            except Exception:  # noqa: BLE001 - not a case the reader accepts
                continue
            if not isinstance(reading, dict):
                continue  # not a skill's frontmatter: fmt leaves it alone
            originals[name] = reading
            (work / name).mkdir()
            (work / name / "SKILL.md").write_bytes(text.encode("utf-8"))
        missing = sorted(set(breaks) - set(originals))
        if missing:
            print(f"fmt-check: strictyaml does not read the cases {missing}", file=sys.stderr)
            return 1
        subprocess.run([skills, "fmt", str(work)], capture_output=True, check=False)
        failures, checked = [], 0
        for name, want in originals.items():
            after = (work / name / "SKILL.md").read_bytes().decode("utf-8")
            fm = frontmatter(after)
            checked += 1
            for reader, load in [("strictyaml", strict), ("PyYAML", yaml.safe_load),
                                 ("ruamel.yaml 1.2", RUAMEL.load)]:
                try:
                    got = load(fm)
                except Exception as error:  # noqa: BLE001
                    got = "error: " + type(error).__name__
                expected = want if reader == "strictyaml" else as_hosts_read(want)
                if got != expected:
                    failures.append(f"{name} under {reader}: {got!r} != {expected!r}\n{fm}")
        for failure in failures[:20]:
            print(failure, file=sys.stderr)
        print(f"fmt-check: {checked} files, {len(failures)} readings differ", file=sys.stderr)
        return 1 if failures or checked < 1500 else 0
    finally:
        shutil.rmtree(work)


if __name__ == "__main__":
    if sys.argv[1:] == ["record"]:
        record()
    elif len(sys.argv) == 3 and sys.argv[1] == "fmt-check":
        sys.exit(fmt_check(sys.argv[2]))
    else:
        sys.exit(__doc__)
