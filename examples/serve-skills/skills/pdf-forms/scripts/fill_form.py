#!/usr/bin/env python3
"""Fill a PDF form from a JSON file of field values (needs pypdf)."""
import json
import sys

from pypdf import PdfReader, PdfWriter


def main(argv):
    if argv[1:2] == ["--list"]:
        for name in PdfReader(argv[2]).get_fields() or {}:
            print(name)
        return 0
    form, values, out = argv[1:4]
    writer = PdfWriter(clone_from=form)
    with open(values, encoding="utf-8") as f:
        fields = json.load(f)
    for page in writer.pages:
        writer.update_page_form_field_values(page, fields)
    with open(out, "wb") as f:
        writer.write(f)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
