"""List the fields of a PDF form (with their values), or fill them."""
import json
import sys

from pypdf import PdfReader, PdfWriter


def fields(path, values):
    for name, field in (PdfReader(path).get_fields() or {}).items():
        print(f"{name}\t{field.get('/V', '')}" if values else name)
    return 0


def fill(form, values, out):
    writer = PdfWriter()
    writer.append(PdfReader(form))
    with open(values) as given:
        values = json.load(given)
    for page in writer.pages:
        writer.update_page_form_field_values(page, values)
    with open(out, "wb") as written:
        writer.write(written)
    return 0


def main(argv):
    if argv[1] == "fields":
        return fields(argv[2], "--values" in argv[3:])
    if argv[1] == "fill":
        return fill(argv[2], argv[3], argv[4])
    print("usage: forms.py fields FORM.pdf [--values] | fill FORM.pdf VALUES.json OUT.pdf")
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
