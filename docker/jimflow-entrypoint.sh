#!/bin/sh
# The worker image's entrypoint: JIMFLOW_STORE_PASSWORD_FILE names a file (a Docker or Kubernetes
# secret) holding the store password, which the worker reads as JIMFLOW_STORE_PASSWORD.
set -e
if [ -n "${JIMFLOW_STORE_PASSWORD_FILE:-}" ]; then
  JIMFLOW_STORE_PASSWORD="$(cat "$JIMFLOW_STORE_PASSWORD_FILE")"
  export JIMFLOW_STORE_PASSWORD
fi
exec "$@"
