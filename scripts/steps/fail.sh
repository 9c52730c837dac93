#!/bin/sh
# Fails on purpose: prints MESSAGE to stderr and exits with CODE (default 1).
# Usage: fail.sh [CODE] [MESSAGE]
echo "${2:-failing on purpose}" >&2
exit "${1:-1}"
