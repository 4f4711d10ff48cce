#!/bin/sh
set -eu
cp -R "$1" "$2"
