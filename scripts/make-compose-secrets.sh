#!/usr/bin/env bash
# Makes the secrets docker-compose.yml reads, once, in ./secrets/ (git-ignored):
#   postgres-password  the PostgreSQL password of Temporal's account (random)
#   store-password     the PostgreSQL password of jimflow's store, its own account (random)
#   payload-keys       the payload encryption keyring: one random AES-256 key, "<id>:<base64>"
#   directory-password the bind password of the directory service (cn=jimflow,dc=example,dc=org)
# Existing files are kept: a new password or key would lock the stack out of its data. To rotate
# the payload key, add a new line on top of payload-keys (docs/security.md).
#   scripts/make-compose-secrets.sh [directory]     (default: ./secrets)
set -euo pipefail

dir="${1:-secrets}"
command -v openssl >/dev/null || { echo "make-compose-secrets: openssl is needed" >&2; exit 1; }
mkdir -p "$dir"
umask 077
if [ ! -f "$dir/postgres-password" ]; then
  openssl rand -hex 24 >"$dir/postgres-password"
  echo "make-compose-secrets: wrote $dir/postgres-password"
fi
if [ ! -f "$dir/store-password" ]; then
  openssl rand -hex 24 >"$dir/store-password"
  echo "make-compose-secrets: wrote $dir/store-password"
fi
if [ ! -f "$dir/payload-keys" ]; then
  {
    echo "# jimflow payload keys: the first encrypts, all decrypt. Keep every key some history needs."
    echo "$(date -u +%Y-%m):$(openssl rand -base64 32)"
  } >"$dir/payload-keys"
  echo "make-compose-secrets: wrote $dir/payload-keys"
fi
if [ ! -f "$dir/directory-password" ]; then
  openssl rand -hex 24 >"$dir/directory-password"
  echo "make-compose-secrets: wrote $dir/directory-password"
fi
# The containers run as their own users and must read them; protect the folder on the host.
chmod 644 "$dir"/postgres-password "$dir"/store-password "$dir"/payload-keys "$dir"/directory-password
chmod 700 "$dir"
