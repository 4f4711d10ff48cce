#!/usr/bin/env python3
"""Scaffold a skill folder."""
import sys, pathlib
pathlib.Path(sys.argv[1]).mkdir(parents=True)
