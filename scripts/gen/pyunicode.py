#!/usr/bin/env python3
"""Generate the Unicode tables of `skills-pycompat/src/unicode/` and its recorded checks.

The Rust module `skills_pycompat::unicode` (with `str.isspace()` from skills-core) reproduces, exactly, these Python 3.11 string operations:
`str.isalnum()`, `str.isspace()`, `str.strip()`, `s != s.lower()` and
`unicodedata.normalize("NFKC", s)`. Everything here is derived from Python itself (CPython
3.11.7, whose `unicodedata` is Unicode 14.0.0), never from a separate copy of the UCD, so the
Rust side matches the reference validator (skills-ref 0.1.1 on Python 3.11) by construction.

Usage (from the repository root):

    python3.11 scripts/gen/pyunicode.py        # CPython 3.11.7 exactly (pyenv: 3.11.7)

writes
    skills-pycompat/src/unicode/tables.rs                 the lookup tables (generated; do not edit)
    skills-pycompat/testdata/unicode/nfkc-codepoints.txt  NFKC of every code point it changes
    skills-pycompat/testdata/unicode/properties.txt       isalnum / isspace / lower-changes as ranges
    skills-pycompat/testdata/unicode/strings.txt          NFKC, lower and strip of recorded strings

The recordings sit inside the crate, so its unit tests (which include them) run from the
published package too.

    python3.11 scripts/gen/pyunicode.py --random-check PATH N

additionally writes N random strings (same format as strings.txt) to PATH, for the ignored
test `skills_pycompat::unicode::tests::external_check` (`cargo test -p skills-pycompat`) (run it with PYUNICODE_CHECK=PATH).
"""

import random
import sys
import unicodedata
from pathlib import Path

PY_VERSION = "3.11.7"
UNIDATA_VERSION = "14.0.0"
# The header names the script and the Python version, never the interpreter's path on the
# machine that ran it: the tables are the same wherever CPython 3.11.7 runs it.
COMMAND = f"scripts/gen/pyunicode.py, run by CPython {PY_VERSION}"

assert sys.version.split()[0] == PY_VERSION, sys.version
assert unicodedata.unidata_version == UNIDATA_VERSION, unicodedata.unidata_version

ROOT = Path(__file__).resolve().parents[2]
TABLES = ROOT / "skills-pycompat" / "src" / "unicode" / "tables.rs"
TESTDATA = ROOT / "skills-pycompat" / "testdata" / "unicode"

MAX = 0x110000
S_BASE, L_BASE, V_BASE, T_BASE = 0xAC00, 0x1100, 0x1161, 0x11A7
L_COUNT, V_COUNT, T_COUNT = 19, 21, 28
S_COUNT = L_COUNT * V_COUNT * T_COUNT


def is_surrogate(cp):
    return 0xD800 <= cp <= 0xDFFF


def is_hangul_syllable(cp):
    return S_BASE <= cp < S_BASE + S_COUNT


def nfkc(s):
    return unicodedata.normalize("NFKC", s)


def code_points():
    """Every Unicode scalar value (what a Rust `char` can hold)."""
    return (cp for cp in range(MAX) if not is_surrogate(cp))


def ranges(cps):
    """Sorted code points -> list of inclusive (start, end) runs."""
    out = []
    for cp in cps:
        if out and out[-1][1] + 1 == cp:
            out[-1][1] = cp
        else:
            out.append([cp, cp])
    return out


def strided_ranges(cps):
    """Sorted code points -> (start, end, step) runs with step 1 or 2.

    A run covers start, start + step, ..., end. Runs are disjoint and sorted, so the
    run that may hold a code point is the last one whose start is not after it.
    """
    out = []
    for cp in cps:
        if out:
            start, end, step = out[-1]
            if start == end and cp - end in (1, 2):
                out[-1] = [start, cp, cp - end]
                continue
            if cp - end == step:
                out[-1][1] = cp
                continue
        out.append([cp, cp, 1])
    # Self-check: expanding the runs gives back exactly the set.
    expanded = [c for s, e, st in out for c in range(s, e + 1, st)]
    assert expanded == list(cps)
    return out


# ---------------------------------------------------------------------------------------------
# Per-code-point data, all asked of Python.

ALNUM = [cp for cp in code_points() if chr(cp).isalnum()]
SPACE = [cp for cp in code_points() if chr(cp).isspace()]
PRINTABLE = [cp for cp in code_points() if chr(cp).isprintable()]
LOWER_CHANGES = [cp for cp in code_points() if chr(cp).lower() != chr(cp)]

# `changes_when_lowercased(s)` is "some character of s changes", which is exact only if the
# lowercase of a changing character never starts with that character and is never empty (then
# the first changed character makes the strings differ at its position). Final sigma only picks
# between two results that both differ from U+03A3. Check the premise here.
for cp in LOWER_CHANGES:
    low = chr(cp).lower()
    assert low and low[0] != chr(cp), hex(cp)
# Context (final sigma) never makes a string with a changing character lowercase to itself,
# nor one without: check every character after, before and between letters.
for cp in code_points():
    c = chr(cp)
    for s in ("A" + c, "A" + c + "B", c + "A", "a" + c):
        changed = s != s.lower()
        expected = any(ch.lower() != ch for ch in s)
        assert changed == expected, (hex(cp), s)

# Python's str.strip() strips exactly the characters for which str.isspace() is true.
for cp in code_points():
    c = chr(cp)
    assert (("x" + c).strip() == "x") == c.isspace(), hex(cp)

CCC = {cp: unicodedata.combining(chr(cp)) for cp in code_points() if unicodedata.combining(chr(cp))}

# Full compatibility decompositions (already canonically ordered), without Hangul syllables,
# which the Rust code decomposes algorithmically.
DECOMP = {}
for cp in code_points():
    if is_hangul_syllable(cp):
        continue
    d = unicodedata.normalize("NFKD", chr(cp))
    if d != chr(cp):
        DECOMP[cp] = d

# Primary composites: a canonical decomposition into exactly two code points that NFC puts back
# together (this leaves out the composition exclusions and the singletons).
PAIRS = []
for cp in code_points():
    d = unicodedata.decomposition(chr(cp))
    if not d or d.startswith("<"):
        continue
    parts = [int(p, 16) for p in d.split()]
    if len(parts) == 2 and unicodedata.normalize("NFC", chr(parts[0]) + chr(parts[1])) == chr(cp):
        PAIRS.append((parts[0], parts[1], cp))
PAIRS.sort()
# The first character of every pair is a starter (the Rust composer relies on it).
assert all(unicodedata.combining(chr(a)) == 0 for a, _, _ in PAIRS)
# Hangul syllables are not in the pair table.
assert not any(is_hangul_syllable(c) for _, _, c in PAIRS)


# ---------------------------------------------------------------------------------------------
# tables.rs


def rust_str(s):
    out = []
    for ch in s:
        cp = ord(ch)
        if 0x20 <= cp < 0x7F and ch not in '"\\':
            out.append(ch)
        else:
            out.append("\\u{%X}" % cp)
    return '"' + "".join(out) + '"'


def wrap(items, indent="    ", width=100):
    """Join items with ", " into lines of at most `width` characters."""
    lines, line = [], indent
    for item in items:
        piece = item + ","
        if line.strip() and len(line) + 1 + len(piece) > width:
            lines.append(line.rstrip())
            line = indent
        line += ("" if not line.strip() else " ") + piece
    if line.strip():
        lines.append(line.rstrip())
    return "\n".join(lines)


def table(name, ty, doc, items):
    return (
        f"/// {doc}\n"
        f"#[rustfmt::skip]\n"
        f"pub(super) static {name}: &[{ty}] = &[\n{wrap(items)}\n];\n"
    )


def gen_tables():
    ccc_runs = []
    for cp in sorted(CCC):
        if ccc_runs and ccc_runs[-1][1] + 1 == cp and ccc_runs[-1][2] == CCC[cp]:
            ccc_runs[-1][1] = cp
        else:
            ccc_runs.append([cp, cp, CCC[cp]])

    parts = [
        "// @generated by scripts/gen/pyunicode.py: do not edit.\n"
        f"// Command: {COMMAND}\n"
        f"// Source: Python {PY_VERSION} `unicodedata` and `str` methods, Unicode {UNIDATA_VERSION}.\n"
        "\n"
        "//! Unicode 14.0.0 tables for `skills_pycompat::unicode`, generated from CPython 3.11.7.\n",
        table(
            "ALNUM",
            "(u32, u32)",
            "Inclusive code point ranges where `str.isalnum()` is true.",
            ["(0x%X, 0x%X)" % (s, e) for s, e in ranges(ALNUM)],
        ),
        # No SPACE table: `str.isspace()` is the same 29 code points in Python 3.11 and 3.12,
        # so skills-pycompat leaves it to skills-core's (`pytext::is_space`), and the properties recorded
        # below check it against Python 3.11.
        table(
            "PRINTABLE",
            "(u32, u32)",
            "Inclusive code point ranges where `str.isprintable()` is true.",
            ["(0x%X, 0x%X)" % (s, e) for s, e in ranges(PRINTABLE)],
        ),
        table(
            "LOWER_CHANGES",
            "(u32, u32, u8)",
            "`(start, end, step)`: the code points `c` with `c.lower() != c` are start, start + step, ..., end.",
            ["(0x%X, 0x%X, %d)" % (s, e, st) for s, e, st in strided_ranges(LOWER_CHANGES)],
        ),
        table(
            "CCC",
            "(u32, u32, u8)",
            "`(start, end, class)`: the nonzero canonical combining classes (`unicodedata.combining`).",
            ["(0x%X, 0x%X, %d)" % tuple(r) for r in ccc_runs],
        ),
        table(
            "DECOMP",
            "(u32, &str)",
            "Full compatibility decomposition (`NFKD` of the single character), Hangul syllables excluded.",
            ["(0x%X, %s)" % (cp, rust_str(d)) for cp, d in sorted(DECOMP.items())],
        ),
        table(
            "COMPOSE",
            "(u32, u32, u32)",
            "`(first, second, composite)` primary composites, sorted by `(first, second)`.",
            ["(0x%X, 0x%X, 0x%X)" % p for p in PAIRS],
        ),
    ]
    text = "\n".join(parts)
    TABLES.parent.mkdir(parents=True, exist_ok=True)
    TABLES.write_text(text)
    print(f"{TABLES.relative_to(ROOT)}: {len(text.encode())} bytes")


# ---------------------------------------------------------------------------------------------
# Recorded checks


def hexs(s):
    return " ".join("%04X" % ord(c) for c in s)


def gen_properties():
    lines = [
        f"# @generated by scripts/gen/pyunicode.py from Python {PY_VERSION} (Unicode {UNIDATA_VERSION}).",
        "# <property> <first> <last>: inclusive code point ranges where the property holds.",
        "# alnum: c.isalnum(); space: c.isspace(); printable: c.isprintable(); lower: c.lower() != c.",
    ]
    props = (("alnum", ALNUM), ("space", SPACE), ("printable", PRINTABLE), ("lower", LOWER_CHANGES))
    for name, cps in props:
        lines += ["%s %04X %04X" % (name, s, e) for s, e in ranges(cps)]
    write("properties.txt", lines)


def gen_codepoints():
    lines = [
        f"# @generated by scripts/gen/pyunicode.py from Python {PY_VERSION} (Unicode {UNIDATA_VERSION}).",
        "# <code point>;<NFKC of it>: every code point whose NFKC differs from itself; all",
        "# others are unchanged.",
    ]
    for cp in code_points():
        n = nfkc(chr(cp))
        if n != chr(cp):
            lines.append("%04X;%s" % (cp, hexs(n)))
    write("nfkc-codepoints.txt", lines)


def interesting_pool(rng):
    """Characters that exercise decomposition, reordering and composition."""
    pool = set()
    by_class = {}
    for cp, c in CCC.items():
        by_class.setdefault(c, []).append(cp)
    for cps in by_class.values():  # one or two marks of every combining class
        pool.update(rng.sample(cps, min(2, len(cps))))
    firsts = sorted({a for a, _, _ in PAIRS})
    seconds = sorted({b for _, b, _ in PAIRS})
    pool.update(seconds)  # every character that can be the second of a pair
    pool.update(rng.sample(firsts, 80))
    pool.update(rng.sample([c for _, _, c in PAIRS], 60))  # composites (decompose, recompose)
    # Decompositions that hold combining marks or several of them.
    marked = [cp for cp, d in DECOMP.items() if any(unicodedata.combining(ch) for ch in d)]
    pool.update(rng.sample(marked, 80))
    pool.update(rng.sample(sorted(DECOMP), 60))
    # Hand-picked: excluded composites, singletons, non-starter decompositions, compatibility
    # characters that decompose to a space or a mark, Greek with dialytika/tonos, kana voicing.
    pool.update(
        [
            0x0344, 0x0F73, 0x0F75, 0x0F77, 0x0F79, 0x0F81, 0x0958, 0x2ADC, 0xFB1D, 0xFB2C,
            0x212B, 0x2126, 0x212A, 0x1E9B, 0x1FC1, 0x1FED, 0x0385, 0x03D3, 0x03D4, 0xFE76,
            0xFE7F, 0x309B, 0x309C, 0x3099, 0x309A, 0xFF9E, 0xFF9F, 0xFF76, 0xFF8A, 0x30AB,
            0x30CF, 0x00A8, 0x00AF, 0x00B4, 0x02D8, 0x1FBF, 0x1FFE, 0x0B47, 0x0B56, 0x0B57,
            0x0DD9, 0x0DCF, 0x0DCA, 0x1025, 0x102E, 0x11131, 0x11127, 0x1D15E, 0x1D165,
            0x1D16E, 0x1D1BB, 0x0041, 0x0061, 0x0069, 0x0049, 0x0130, 0x03A3, 0x03C3, 0x00DF,
            0x0020, 0x00A0, 0x3000, 0x001C, 0x0301, 0x0300, 0x0308, 0x0323, 0x0327, 0x031B,
            0x0345, 0x05B0, 0x05BC, 0x064B, 0x0651, 0x0670, 0x0E38, 0x0E48, 0x1DFA, 0x16FF0,
            0x0041, 0x0045, 0x004F, 0x0055, 0x03B1, 0x03B7, 0x03C9, 0x0391, 0x0399, 0x1F00,
            0xFB03, 0xFDFA, 0x3392, 0x33FF, 0x2460, 0x24B6, 0x1F130, 0x1D400, 0xFF21, 0x2160,
        ]
    )
    # Hangul: conjoining jamo (leading, vowel, trailing, plus ones outside the composing
    # ranges), syllables with and without a trailing consonant, compatibility and halfwidth jamo.
    pool.update(rng.sample(range(L_BASE, L_BASE + L_COUNT), 6))
    pool.update(rng.sample(range(V_BASE, V_BASE + V_COUNT), 6))
    pool.update(rng.sample(range(T_BASE + 1, T_BASE + T_COUNT), 6))
    pool.update([L_BASE + L_COUNT, V_BASE - 1, V_BASE + V_COUNT, T_BASE, T_BASE + T_COUNT])
    pool.update(S_BASE + T_COUNT * rng.randrange(L_COUNT * V_COUNT) for _ in range(6))
    pool.update(rng.sample(range(S_BASE, S_BASE + S_COUNT), 6))
    pool.update([0x3131, 0x314F, 0x3134, 0x3161, 0x3165, 0xFFA1, 0xFFC2, 0xFFA4, 0x3164])
    return sorted(cp for cp in pool if not is_surrogate(cp))


def random_strings(rng, pool, n, max_len=9):
    out, seen = [], set()
    while len(out) < n:
        s = "".join(chr(rng.choice(pool)) for _ in range(rng.randint(1, max_len)))
        if s not in seen:
            seen.add(s)
            out.append(s)
    return out


def string_lines(strings):
    lines = []
    for s in strings:
        lines.append("nfkc;%s;%s" % (hexs(s), hexs(nfkc(s))))
    return lines


def gen_strings():
    rng = random.Random(1400)
    pool = interesting_pool(rng)
    lines = [
        f"# @generated by scripts/gen/pyunicode.py from Python {PY_VERSION} (Unicode {UNIDATA_VERSION}).",
        "# nfkc;<s>;<unicodedata.normalize('NFKC', s)>",
        "# lower;<s>;<1 if s != s.lower() else 0>",
        "# strip;<s>;<s.strip()>",
        "# Strings are code points in hex, separated by spaces.",
    ]
    strings = random_strings(rng, pool, 1200)
    # Long runs of non-starters (CPython has no limit on how many it skips).
    marks = sorted(CCC)
    strings += random_strings(rng, pool, 20, max_len=60)
    for _ in range(20):
        base = chr(rng.choice([a for a, _, _ in PAIRS]))
        run = "".join(chr(rng.choice(marks)) for _ in range(rng.randint(15, 40)))
        strings.append(base + run + chr(rng.choice([b for _, b, _ in PAIRS])))
    # Every primary composite in decomposed, reversed-mark and doubled-mark form.
    for a, b, c in PAIRS:
        if rng.random() < 0.25:
            mark = chr(rng.choice(pool))
            strings.append(chr(a) + mark + chr(b))
            strings.append(chr(a) + chr(b) + mark)
    lines += string_lines(strings)

    lower_cases = [
        "Σ", "ΑΣ", "ΑΣ Α", "aσ", "aς", "ς", "σς", "abc", "Abc", "İ", "i̇", "ß", "ẞ", "ǅ", "ǆ",
        "ᾈ", "ᾀ", "Ⅰ", "ⅰ", "Ⓐ", "ⓐ", "Ａ", "ａ", "𐐀", "𐐨", "١٢٣", "ꭰ", "Ꭰ", "ϴ", "K", "Å",
        "Ω", "ǈ", "ﬀ", "ŉ", "",
    ]
    lower_cases += ["".join(chr(rng.choice(LOWER_CHANGES + ALNUM[:400])) for _ in range(3))
                    for _ in range(40)]
    lower_cases += random_strings(rng, pool, 100)
    lines += ["lower;%s;%d" % (hexs(s), s != s.lower()) for s in lower_cases]

    spaces = [chr(cp) for cp in SPACE] + ["\u180e", "\u200b", "\ufeff", "\u2060", "\u00ad"]
    strip_cases = ["", " ", "  a b  ", "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f a \x85\xa0", "\u180ea\u200b"]
    strip_cases += ["".join(rng.choice(spaces + ["a", "é", "\u0301"]) for _ in range(rng.randint(0, 8)))
                    for _ in range(120)]
    lines += ["strip;%s;%s" % (hexs(s), hexs(s.strip())) for s in strip_cases]
    write("strings.txt", lines)


def write(name, lines):
    TESTDATA.mkdir(parents=True, exist_ok=True)
    path = TESTDATA / name
    text = "\n".join(lines) + "\n"
    path.write_text(text)
    print(f"{path.relative_to(ROOT)}: {len(text.encode())} bytes")


def random_check(path, n):
    rng = random.Random(n)
    pool = interesting_pool(rng)
    lines = string_lines(random_strings(rng, pool, n))
    Path(path).write_text("\n".join(lines) + "\n")
    print(f"{path}: {n} strings")


def main():
    args = sys.argv[1:]
    if args and args[0] == "--random-check":
        random_check(args[1], int(args[2]))
        return
    gen_tables()
    gen_properties()
    gen_codepoints()
    gen_strings()


if __name__ == "__main__":
    main()
