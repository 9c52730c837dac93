#!/usr/bin/env bash
# Times the jimflow CLI side by side with the Temporal CLI against the same server, in one run:
# `./jimflow schedules list`, `temporal schedule list` and `./jimflow --help`, interleaved round by
# round so that both see the same machine load. Prints the median, min and max wall time and the
# median CPU time (user + system) of each, and the ratio of the medians.
#
#   scripts/bench-cli.sh [--rounds N] [--address HOST:PORT] [--namespace NS] [--baseline DIR]
#
# --baseline DIR adds `DIR/jimflow schedules list` to every round: another checkout (e.g. a git
# worktree of an earlier commit, built), to compare a change with what came before in one run.
#
# Needs a server with jimflow's search attributes (e.g. ./jimflow dev) and the Temporal CLI
# (scripts/install-temporal-cli.sh puts it into .tools/). One warm-up round is not counted; it also
# builds the jars and the CLI's class-data sharing archive if they are missing.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
rounds=20
address="${TEMPORAL_ADDRESS:-127.0.0.1:7233}"
namespace="${TEMPORAL_NAMESPACE:-default}"
baseline=""
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) rounds="${2:?--rounds needs a value}"; shift 2 ;;
    --address) address="${2:?--address needs a value}"; shift 2 ;;
    --namespace) namespace="${2:?--namespace needs a value}"; shift 2 ;;
    --baseline) baseline="$(cd "${2:?--baseline needs a directory}" && pwd)"; shift 2 ;;
    -h|--help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench-cli: unknown option $1" >&2; exit 2 ;;
  esac
done

temporal="$(bash "$root/scripts/install-temporal-cli.sh")"
export TEMPORAL_ADDRESS="$address" TEMPORAL_NAMESPACE="$namespace"

python3 - "$rounds" "$root/jimflow" "$temporal" "$baseline" <<'PY'
import os, resource, statistics, subprocess, sys, time

rounds, jimflow, temporal, baseline = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
commands = {
    "./jimflow schedules list": [jimflow, "schedules", "list"],
    "temporal schedule list": [temporal, "schedule", "list"],
    "./jimflow --help": [jimflow, "--help"],
}
if baseline:
    commands["baseline schedules list"] = [os.path.join(baseline, "jimflow"), "schedules", "list"]

def run(argv):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit(f"bench-cli: {' '.join(argv)} exited {done.returncode}: {done.stderr.decode().strip()}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu

for argv in commands.values():  # warm-up: builds, trains the archive, fills the page cache
    run(argv)
times = {name: [] for name in commands}
load_before = os.getloadavg()[0]
for _ in range(rounds):
    for name, argv in commands.items():
        times[name].append(run(argv))
load_after = os.getloadavg()[0]

print(f"{rounds} rounds, interleaved; 1-minute load average {load_before:.2f} -> {load_after:.2f}")
if baseline:
    print(f"baseline: {baseline}")
print(f"{'command':<26} {'median wall':>11} {'min':>7} {'max':>7} {'median CPU':>11}")
medians = {}
for name, samples in times.items():
    walls = [w for w, _ in samples]
    cpus = [c for _, c in samples]
    medians[name] = statistics.median(walls)
    print(f"{name:<26} {medians[name]:>10.3f}s {min(walls):>6.3f}s {max(walls):>6.3f}s {statistics.median(cpus):>10.3f}s")
ratio = medians["./jimflow schedules list"] / medians["temporal schedule list"]
print(f"ratio of the medians, jimflow / temporal schedule list: {ratio:.1f}x")
if baseline:
    print(f"ratio of the medians, jimflow / baseline schedules list: "
          f"{medians['./jimflow schedules list'] / medians['baseline schedules list']:.2f}")
PY
