#!/usr/bin/env python3
"""Zip a skill folder."""
import shutil, sys
shutil.make_archive(sys.argv[1], "zip", sys.argv[1])
