#!/usr/bin/env python3
"""Adds `agentskills` to a skills-cmd wheel: a copy of its `skills` binary.

The binary is the reference CLI's drop-in when called by the name
`agentskills`; a wheel holds no links, and maturin's `bin` bindings take no
Python scripts beside a binary, so the wheel carries the binary twice. The
wheel is rewritten in place with its RECORD updated (name, SHA-256, size),
its entries in their order and with their dates, so the result is as
deterministic as maturin's. Works for any platform's wheel (`skills.exe`
gives `agentskills.exe`).

    scripts/dist/add-agentskills.py target/dist/skills_cmd-VERSION-TAGS.whl
"""

import base64
import hashlib
import os
import sys
import zipfile


def main(path):
    with zipfile.ZipFile(path) as wheel:
        entries = [(info, wheel.read(info)) for info in wheel.infolist()]
    binary = next(
        (info, data)
        for info, data in entries
        if info.filename.endswith(".data/scripts/skills") or info.filename.endswith(".data/scripts/skills.exe")
    )
    name = binary[0].filename.replace("/scripts/skills", "/scripts/agentskills")
    if any(info.filename == name for info, _ in entries):
        sys.exit(f"add-agentskills: {path} already holds {name}")
    copy = zipfile.ZipInfo(name, date_time=binary[0].date_time)
    copy.external_attr = binary[0].external_attr
    copy.compress_type = binary[0].compress_type
    digest = base64.urlsafe_b64encode(hashlib.sha256(binary[1]).digest()).rstrip(b"=").decode()
    line = f"{name},sha256={digest},{len(binary[1])}\n"
    out = []
    for info, data in entries:
        if info.filename.endswith(".dist-info/RECORD"):
            data = line.encode() + data
        out.append((info, data))
        if info is binary[0]:
            out.append((copy, binary[1]))
    temporary = path + ".tmp"
    with zipfile.ZipFile(temporary, "w") as wheel:
        for info, data in out:
            wheel.writestr(info, data)
    os.replace(temporary, path)


if __name__ == "__main__":
    main(sys.argv[1])
