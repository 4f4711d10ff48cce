#!/bin/sh
set -eu
test -f "$1/SKILL.md"
