#!/bin/sh
# Counts to N, one unit every INTERVAL seconds (default 1), reporting progress and a checkpoint
# after each unit. A retried attempt resumes from JIMFLOW_CHECKPOINT instead of starting at zero.
# Usage: count.sh N [INTERVAL]
set -eu
total=${1:?usage: count.sh N [INTERVAL]}
interval=${2:-1}
i=${JIMFLOW_CHECKPOINT:-0}
echo "attempt ${JIMFLOW_ATTEMPT:-1}: counting from $i to $total"
while [ "$i" -lt "$total" ]; do
  sleep "$interval"
  i=$((i + 1))
  echo "::progress $i/$total"
  echo "::checkpoint $i"
done
echo "counted to $total"
