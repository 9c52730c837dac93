#!/usr/bin/env bash
# Stops a Temporal server started by scripts/start-temporal-server.sh: SIGTERM, then SIGKILL if it
# has not exited after --timeout seconds. Its databases stay as they are.
# Usage: scripts/stop-temporal-server.sh [--dir DIR] [--timeout SECONDS]
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dir="${JIMFLOW_TEMPORAL_DIR:-$root/data/temporal-server}"
timeout=30

while [ $# -gt 0 ]; do
  case "$1" in
    --dir) dir="${2:?--dir needs a value}"; shift 2 ;;
    --timeout) timeout="${2:?--timeout needs a value}"; shift 2 ;;
    -h|--help) sed -n '2,4p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "stop-temporal-server: unknown option $1" >&2; exit 2 ;;
  esac
done

pid_file="$dir/temporal-server.pid"
if [ ! -f "$pid_file" ]; then
  echo "stop-temporal-server: no server started from $dir" >&2
  exit 0
fi
pid="$(cat "$pid_file")"
# Only a process that runs the server binary is ours: a pid can be reused after a reboot.
if ! kill -0 "$pid" 2>/dev/null || ! grep -q temporal-server "/proc/$pid/cmdline" 2>/dev/null; then
  echo "stop-temporal-server: the server from $dir is not running" >&2
  rm -f "$pid_file"
  exit 0
fi

kill -TERM "$pid"
for _ in $(seq 1 $((timeout * 4))); do
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.25
done
if kill -0 "$pid" 2>/dev/null; then
  echo "stop-temporal-server: pid $pid still running after ${timeout} s; killing it" >&2
  kill -KILL "$pid"
fi
rm -f "$pid_file"
echo "stop-temporal-server: stopped the server from $dir (pid $pid)" >&2
