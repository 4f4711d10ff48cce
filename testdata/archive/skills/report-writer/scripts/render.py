#!/usr/bin/env python3
"""Prints a Markdown table of note titles."""
import sys

for path in sys.argv[1:]:
    print(f"| {path} |")
