#!/usr/bin/env python3
"""Writes the compile benchmark's skill tree, the same bytes on every run.

The tree is shaped like a real public skills repository: tens of skills,
most of them a SKILL.md and a reference or two, a few heavy ones with
scripts, schemas, fonts and images, about 9 MB in all, a fifth of it binary.
Every file comes from one seeded generator, so the tree (and the bundle
compiled from it) is identical on every machine and every run.

    python3 scripts/gen/bench-corpus.py OUT_DIR

OUT_DIR is emptied first. The script prints the number of skills, files and
bytes it wrote.
"""

import os
import random
import shutil
import sys

WORDS = (
    "the a skill agent model tool file read write parse check build embed serve prompt "
    "document table column row sheet slide chart image page form field value style font "
    "when use this to for with from into each every step run script output input format "
    "convert extract merge split validate report error warning note example template"
).split()

# name, description, and what the folder holds besides SKILL.md:
# (references, scripts, schema files, fonts, images, other binaries)
HEAVY = [
    ("docx", "Create, edit and analyse Word documents with tracked changes and comments.", (3, 6, 40, 0, 2, 1)),
    ("pptx", "Create and edit PowerPoint presentations with layouts, speaker notes and thumbnails.", (3, 8, 40, 0, 3, 1)),
    ("xlsx", "Build spreadsheets with formulas, formatting and charts; recalculate and check them.", (2, 4, 20, 0, 1, 1)),
    ("pdf", "Extract text and tables from PDF files, fill forms, merge and split documents.", (3, 7, 0, 0, 2, 2)),
    ("canvas-design", "Design posters and visual art as PNG and PDF files from a design philosophy.", (1, 1, 0, 24, 2, 0)),
    ("slack-gif-creator", "Make animated GIFs sized for Slack, with validators for the limits.", (1, 5, 0, 0, 4, 1)),
]
LIGHT = [
    "algorithmic-art", "artifacts-builder", "brand-guidelines", "frontend-design",
    "internal-comms", "mcp-builder", "skill-creator", "template-skill", "theme-factory",
    "webapp-testing", "changelog-writer", "code-review", "commit-messages", "csv-report",
    "data-cleaning", "diagram-maker", "email-drafts", "meeting-notes", "release-notes",
    "sql-helper", "test-writer", "api-docs", "incident-report", "invoice-reader",
]


def prose(rng, lines, width=14):
    return "\n".join(" ".join(rng.choice(WORDS) for _ in range(rng.randint(width // 2, width))) for _ in range(lines))


def markdown(rng, sections, lines):
    parts = []
    for s in range(sections):
        parts.append(f"## Section {s + 1}: {rng.choice(WORDS)} {rng.choice(WORDS)}\n\n{prose(rng, lines)}\n")
        if rng.random() < 0.4:
            parts.append("```bash\npython scripts/run.py --input file.txt --output out.txt\n```\n")
    return "\n".join(parts)


def script(rng, functions):
    out = ["#!/usr/bin/env python3", '"""Generated helper for the compile benchmark."""', "import sys", ""]
    for f in range(functions):
        out.append(f"def step_{f}(value):")
        out.append(f'    """{prose(rng, 1, 8)}"""')
        for k in range(rng.randint(3, 12)):
            out.append(f"    value = value * {rng.randint(2, 97)} + {k}  # {rng.choice(WORDS)}")
        out.append("    return value\n")
    out.append('if __name__ == "__main__":\n    print(step_0(int(sys.argv[1])))\n')
    return "\n".join(out)


def schema(rng, elements):
    out = ['<?xml version="1.0" encoding="UTF-8"?>', '<xsd:schema xmlns:xsd="http://www.w3.org/2001/XMLSchema">']
    for e in range(elements):
        out.append(f'  <xsd:complexType name="CT_{rng.choice(WORDS).title()}{e}">')
        for _ in range(rng.randint(2, 8)):
            out.append(f'    <xsd:attribute name="{rng.choice(WORDS)}" type="xsd:string" use="optional"/>')
        out.append("  </xsd:complexType>")
    out.append("</xsd:schema>\n")
    return "\n".join(out)


def png(rng, size):
    # A PNG signature and header chunk, then incompressible bytes: detected
    # as an image, hashed and embedded like a real one.
    return b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + rng.randbytes(size - 16)


def skill_md(rng, name, description, lines, extra):
    front = f"---\nname: {name}\ndescription: {description} Use when the task needs {name.replace('-', ' ')}.\n"
    if rng.random() < 0.5:
        front += "license: Proprietary. LICENSE.txt has complete terms\n"
    if rng.random() < 0.3:
        front += "metadata:\n  author: bench\n  version: \"1.0\"\n"
    return front + f"---\n\n# {name}\n\n{extra}{markdown(rng, max(2, lines // 20), 18)}\n"


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())


def main(out):
    rng = random.Random(20261201)
    if os.path.exists(out):
        shutil.rmtree(out)
    for name, description, (refs, scripts, schemas, fonts, images, bins) in HEAVY:
        d = os.path.join(out, name)
        listing = "".join(f"- `reference/ref-{r}.md`\n" for r in range(refs)) + "\n"
        write(os.path.join(d, "SKILL.md"), skill_md(rng, name, description, 300, listing))
        write(os.path.join(d, "LICENSE.txt"), prose(rng, 40))
        for r in range(refs):
            write(os.path.join(d, "reference", f"ref-{r}.md"), markdown(rng, 12, 30))
        for s in range(scripts):
            write(os.path.join(d, "scripts", f"tool_{s}.py"), script(rng, 30))
        for s in range(schemas):
            write(os.path.join(d, "ooxml", "schemas", f"part-{s:02d}.xsd"), schema(rng, 40))
        for f in range(fonts):
            write(os.path.join(d, "canvas-fonts", f"Font{f:02d}-Regular.ttf"), b"\x00\x01\x00\x00" + rng.randbytes(rng.randint(60_000, 200_000)))
        for i in range(images):
            write(os.path.join(d, "assets", f"example-{i}.png"), png(rng, rng.randint(60_000, 240_000)))
        for b in range(bins):
            write(os.path.join(d, "assets", f"template-{b}.bin"), rng.randbytes(rng.randint(20_000, 60_000)))
    for name in LIGHT:
        d = os.path.join(out, name)
        write(os.path.join(d, "SKILL.md"), skill_md(rng, name, f"Generated {name.replace('-', ' ')} skill.", rng.randint(60, 300), ""))
        if rng.random() < 0.6:
            write(os.path.join(d, "reference.md"), markdown(rng, 10, 25))
        if rng.random() < 0.4:
            write(os.path.join(d, "scripts", "helper.py"), script(rng, 12))
        if rng.random() < 0.25:
            write(os.path.join(d, "assets", "icon.png"), png(rng, rng.randint(4_000, 20_000)))
    files = size = 0
    for root, _, names in os.walk(out):
        for n in names:
            files += 1
            size += os.path.getsize(os.path.join(root, n))
    print(f"{len(HEAVY) + len(LIGHT)} skills, {files} files, {size} bytes")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: bench-corpus.py OUT_DIR")
    main(sys.argv[1])
