#!/usr/bin/env python3
"""Record strictyaml 1.7.3's verdict for every YAML case under testdata/yaml/.

Run from the repository root with the reference interpreter:

    .venv-ref/bin/python scripts/record/yaml.py

(create it with `python3 -m venv .venv-ref && .venv-ref/bin/pip install skills-ref==0.1.1`).

For each `testdata/yaml/<case>.yaml` the input is read as UTF-8 exactly as stored
(no newline translation) and handed to `strictyaml.load`. The script writes
`testdata/yaml/<case>.out` next to it, holding one of:

* `ok\n` then `json.dumps(data, ensure_ascii=False, indent=1)` and a newline,
  where `data` is strictyaml's `.data` (str, list or dict of text);
* `error\n` then `str(e)` exactly, for a `strictyaml.YAMLError` (ruamel's
  marked error text), with no trailing newline added;
* `crash\n` then the exception's class name and a newline, when the reference
  fails with anything else (e.g. the AttributeError it hits on non-printable
  characters). Our reader gives its own error there.

It writes nothing else and nothing outside testdata/yaml, unless given another
directory as its one argument (for differential runs; see
skills-cmd/src/python/json.rs), which it then records instead.
"""
import json
import pathlib
import sys

import strictyaml

ROOT = pathlib.Path(__file__).resolve().parents[2] / "testdata" / "yaml"


def record(text):
    try:
        data = strictyaml.load(text).data
    except strictyaml.YAMLError as error:
        return "error\n" + str(error)
    except Exception as error:  # the reference crashes on these inputs
        return "crash\n" + type(error).__name__ + "\n"
    return "ok\n" + json.dumps(data, ensure_ascii=False, indent=1) + "\n"


def main():
    root = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT
    cases = sorted(root.glob("*.yaml"))
    for case in cases:
        text = case.read_bytes().decode("utf-8")
        out = case.with_suffix(".out")
        out.write_bytes(record(text).encode("utf-8"))
    print("recorded %d cases in %s" % (len(cases), root), file=sys.stderr)


if __name__ == "__main__":
    main()
