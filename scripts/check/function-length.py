#!/usr/bin/env python3
"""Report every function longer than a limit in a crate's sources.

    scripts/check/function-length.py skills-install        # limit 80 lines
    scripts/check/function-length.py --max 60 skills-core  # another limit
    scripts/check/function-length.py --self-test           # the checker on known cases

A crate is a folder of the workspace; every `.rs` file under its `src/`
is read (test modules too: a test is code to read as well). A function's
length is its lines from the one holding `fn` to the one holding its
closing brace, both counted, so a function of exactly the limit passes
and one line more fails. Declarations without a body (a trait's
`fn f(&self);`) are not functions here. Comments, strings (raw ones
too) and char literals are blanked first with the module-cycle check's
own scanner, so a `}` in any of them closes nothing; lifetimes stay.

It prints `path:line: fn name is N lines (limit L)` for each, longest
first, and exits with status 1 when there is one, 0 when there is none,
so `scripts/test.sh` can run it.
"""

import argparse
import importlib.util
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _module_cycles():
    """scripts/check/module-cycles.py, whose `strip` blanks comments,
    strings and char literals (its name has a dash, so it is loaded by
    path)."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "module-cycles.py")
    spec = importlib.util.spec_from_file_location("module_cycles", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


strip = _module_cycles().strip

FN = re.compile(r"\bfn\s+([A-Za-z_][A-Za-z0-9_]*)")


def functions(text):
    """(name, first line, line count) of every function with a body in
    `text`, nested ones included."""
    code = strip(text)
    out = []
    for m in FN.finditer(code):
        # The signature ends at the first `{` or `;` outside brackets and
        # parentheses (`[u8; 4]` is a type, not the end of a declaration).
        depth, j, n = 0, m.end(), len(code)
        while j < n:
            c = code[j]
            if c in "([":
                depth += 1
            elif c in ")]":
                depth -= 1
            elif depth == 0 and c in "{;":
                break
            j += 1
        if j >= n or code[j] == ";":
            continue
        braces, k = 0, j
        while k < n:
            if code[k] == "{":
                braces += 1
            elif code[k] == "}":
                braces -= 1
                if braces == 0:
                    break
            k += 1
        first = code.count("\n", 0, m.start()) + 1
        last = code.count("\n", 0, min(k, n)) + 1
        out.append((m.group(1), first, last - first + 1))
    return out


def long_functions(src, limit):
    """(length, path, line, name) of every function over `limit` lines
    in the `.rs` files under `src`, longest first."""
    found = []
    for folder, dirs, files in os.walk(src):
        dirs.sort()
        for name in sorted(files):
            if not name.endswith(".rs"):
                continue
            path = os.path.join(folder, name)
            with open(path, encoding="utf-8") as f:
                text = f.read()
            for fn, line, length in functions(text):
                if length > limit:
                    found.append((length, path, line, fn))
    found.sort(key=lambda row: (-row[0], row[1], row[2]))
    return found


def self_test():
    """The checker on small sources whose function lengths are known."""
    body = lambda n: "".join(f"    let _{i} = {i};\n" for i in range(n))
    cases = [
        # Exactly the limit (fn line, 8 body lines, closing brace = 10).
        ("at the limit", f"fn ten() {{\n{body(8)}}}\n", [("ten", 1, 10)]),
        ("one over", f"fn eleven() {{\n{body(9)}}}\n", [("eleven", 1, 11)]),
        # Braces in strings, raw strings, chars and comments close nothing.
        (
            "braces in literals",
            'fn f() {\n    let a = "}}";\n    let b = r#"}"}"#;\n    let c = \'}\';\n'
            "    // }\n    /* } */\n}\nfn g() {}\n",
            [("f", 1, 7), ("g", 8, 1)],
        ),
        # Lifetimes are not char literals; an array type in a signature
        # does not end it; a trait's declaration has no body.
        (
            "signatures",
            "trait T {\n    fn decl(&self);\n    fn given(&self) {}\n}\n"
            "fn life<'a>(x: &'a str, y: [u8; 4]) -> &'a str {\n    let _ = y;\n    x\n}\n",
            [("given", 3, 1), ("life", 5, 4)],
        ),
        # A nested function counts on its own and within its parent; a
        # function pointer type is not a function.
        (
            "nested",
            "pub(crate) fn outer(f: fn(u8) -> u8) {\n    fn inner() {\n    }\n    f(1);\n}\n",
            [("outer", 1, 5), ("inner", 2, 2)],
        ),
    ]
    failed = 0
    for name, text, want in cases:
        got = functions(text)
        if got != want:
            failed += 1
            print(f"self-test {name}: got {got}, want {want}", file=sys.stderr)
    if failed:
        return 1
    print(f"function-length self-test: {len(cases)} cases pass")
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("crates", nargs="*", help="workspace folders whose src/ is read")
    parser.add_argument("--max", type=int, default=80, help="the most lines a function may have")
    parser.add_argument("--self-test", action="store_true")
    args = parser.parse_args()
    if args.self_test:
        return self_test()
    if not args.crates:
        parser.error("name at least one crate folder")
    status = 0
    for crate in args.crates:
        src = os.path.join(ROOT, crate, "src")
        if not os.path.isdir(src):
            print(f"{crate}: no such crate folder ({src} is not a folder)", file=sys.stderr)
            return 2
        found = long_functions(src, args.max)
        for length, path, line, fn in found:
            print(f"{os.path.relpath(path, ROOT)}:{line}: fn {fn} is {length} lines (limit {args.max})")
        if found:
            status = 1
        else:
            print(f"{crate}: no function over {args.max} lines")
    return status


if __name__ == "__main__":
    sys.exit(main())
