"""List or fill the fields of a PDF form."""
import json
import sys

from pypdf import PdfReader, PdfWriter


def main(argv):
    if argv[1] == "--list":
        for name in PdfReader(argv[2]).get_fields() or {}:
            print(name)
        return 0
    reader = PdfReader(argv[1])
    writer = PdfWriter()
    writer.append(reader)
    with open(argv[2]) as values:
        writer.update_page_form_field_values(writer.pages[0], json.load(values))
    with open(argv[3], "wb") as out:
        writer.write(out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
