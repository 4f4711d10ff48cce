#!/bin/sh
ls "$1"
