#!/usr/bin/env python3
"""Write a deterministic synthetic corpus of skills shaped like a public registry.

    python3 scripts/gen/corpus.py N OUT_DIR [--seed S] [--invalid FRACTION]

N skill folders go under OUT_DIR (which must not exist, or be empty). The shape
follows what public registries hold:

- SKILL.md sizes drawn from a log-normal distribution with a median of about
  2 KB, clamped to 300 B .. 100 KB (so a long tail of large skills);
- 10% of the skills carry extra files (a reference document, a script, now and
  then a small binary asset);
- 20% (``--invalid``) are invalid in the ways real ones are, in equal shares:
  Title Case names with spaces, a name that does not match the folder, an
  unknown top-level field, YAML that does not parse, an empty description.

The same N and seed give the same bytes on every machine: the only source of
randomness is ``random.Random(seed)``, and nothing depends on the clock, the
locale or the file system's order. The last line printed is a JSON summary
(skills, invalid, raw bytes) that scripts/bench/scale.sh reads.
"""

import argparse
import json
import math
import os
import random
import sys

WORDS = (
    "pdf form table chart image audio video text markdown json yaml csv sql git "
    "docker deploy review test lint format build release cloud queue cache index "
    "search parse render export import sync backup report invoice budget ledger "
    "schema migrate api client server token auth secret log metric trace alert "
    "slide sheet doc email calendar ticket issue branch commit patch diff merge "
    "brand style theme color font layout grid canvas svg icon map route graph"
).split()

PROSE = (
    "the a this each every when then use run check read write open close keep "
    "skill file step output input value field page row column section note "
    "before after until unless always never only first last next with without "
    "into from over under between carefully quickly safely exactly clearly"
).split()

INVALID_KINDS = ("title-case", "mismatch", "unknown-field", "bad-yaml", "empty-description")


def sentence(rng, words):
    text = " ".join(rng.choice(PROSE if i % 3 else WORDS) for i in range(words))
    return text[0].upper() + text[1:] + "."


def body(rng, target):
    """Markdown of about ``target`` bytes: headings, paragraphs, lists, code."""
    parts = []
    size = 0
    section = 0
    while size < target:
        section += 1
        chunk = [f"## {sentence(rng, rng.randint(2, 5))[:-1]}\n"]
        kind = rng.random()
        if kind < 0.55:
            chunk.append(" ".join(sentence(rng, rng.randint(6, 18)) for _ in range(rng.randint(2, 6))) + "\n")
        elif kind < 0.85:
            chunk.extend(f"- {sentence(rng, rng.randint(4, 10))}\n" for _ in range(rng.randint(2, 7)))
        else:
            lines = [f"{rng.choice(WORDS)} --{rng.choice(WORDS)} {rng.choice(WORDS)}.{rng.choice(('md', 'json', 'txt'))}"
                     for _ in range(rng.randint(1, 5))]
            chunk.append("```bash\n" + "\n".join(lines) + "\n```\n")
        text = "\n".join(chunk) + "\n"
        parts.append(text)
        size += len(text.encode())
    return f"# {sentence(rng, 3)[:-1]}\n\n" + "".join(parts)


def skill_size(rng):
    # Log-normal around 2 KB: median e^mu = 2048, sigma 0.9 gives a p99 near
    # 16 KB, and a few draws go to the 100 KB cap.
    return int(min(100_000, max(300, math.exp(rng.gauss(math.log(2048), 0.9)))))


def skill_md(rng, folder, invalid):
    name = folder
    description = sentence(rng, rng.randint(8, 30))
    extra = []
    if rng.random() < 0.3:
        extra.append("license: Apache-2.0")
    if rng.random() < 0.2:
        extra.append(f"metadata:\n  author: {rng.choice(WORDS)}-team\n  version: \"1.{rng.randint(0, 9)}\"")
    if rng.random() < 0.1:
        extra.append("allowed-tools: Bash(git:*) Read")
    if invalid == "title-case":
        name = " ".join(part.capitalize() for part in folder.split("-")[:-1])
    elif invalid == "mismatch":
        name = folder.rsplit("-", 1)[0]
    elif invalid == "unknown-field":
        extra.append(f"{rng.choice(('author', 'tags', 'category', 'homepage'))}: {rng.choice(WORDS)}")
    elif invalid == "empty-description":
        description = ""
    front = [f"name: {name}", f"description: {json.dumps(description)}" if description == "" else f"description: {description}"]
    front.extend(extra)
    if invalid == "bad-yaml":
        front.insert(1, f"tags: [{rng.choice(WORDS)}, {rng.choice(WORDS)}")
    head = "---\n" + "\n".join(front) + "\n---\n\n"
    target = max(0, skill_size(rng) - len(head.encode()))
    return head + body(rng, target)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("n", type=int, help="how many skill folders")
    parser.add_argument("out", help="the directory to write them into")
    parser.add_argument("--seed", type=int, default=15)
    parser.add_argument("--invalid", type=float, default=0.2, help="the share of invalid skills (default 0.2)")
    args = parser.parse_args()
    if args.n < 0 or not 0 <= args.invalid <= 1:
        parser.error("N must be >= 0 and --invalid between 0 and 1")
    if os.path.exists(args.out) and os.listdir(args.out):
        parser.error(f"{args.out} exists and is not empty")
    rng = random.Random(args.seed)
    raw = 0
    invalid_count = 0
    width = max(5, len(str(args.n)))
    for index in range(args.n):
        folder = f"{rng.choice(WORDS)}-{rng.choice(WORDS)}-{index:0{width}d}"
        invalid = None
        if rng.random() < args.invalid:
            invalid = INVALID_KINDS[index % len(INVALID_KINDS)]
            invalid_count += 1
        files = {"SKILL.md": skill_md(rng, folder, invalid).encode()}
        if rng.random() < 0.1:
            files["references/REFERENCE.md"] = body(rng, skill_size(rng)).encode()
            if rng.random() < 0.5:
                files["scripts/run.py"] = (
                    "import sys\n\n\ndef main():\n    print(" + json.dumps(sentence(rng, 6)) + ")\n\n\n"
                    "if __name__ == \"__main__\":\n    sys.exit(main())\n"
                ).encode()
            if rng.random() < 0.2:
                files["assets/logo.png"] = b"\x89PNG\r\n\x1a\n" + rng.randbytes(rng.randint(64, 4096))
        for rel, data in files.items():
            path = os.path.join(args.out, folder, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as handle:
                handle.write(data)
            raw += len(data)
    print(json.dumps({"skills": args.n, "invalid": invalid_count, "raw_bytes": raw, "seed": args.seed}))


if __name__ == "__main__":
    sys.exit(main())
