#!/usr/bin/env bash
# Starts a local PostgreSQL for the production topology tests (the other tests run on an embedded
# one, docs/store.md): installs Debian's postgresql if missing, starts the
# cluster and creates the role and database the tests use by default
# (jdbc:postgresql://localhost:5432/jimflow_test, user jimflow, password jimflow), the databases of
# the Temporal server that the topology tests start (temporal_test, temporal_visibility_test), and
# those scripts/start-temporal-server.sh uses by default (temporal, temporal_visibility), all owned
# by that role.
# Idempotent: safe to run again while it is running. Needs root (apt-get, pg_ctlcluster).
set -euo pipefail

DB_NAME="${JIMFLOW_TEST_POSTGRES_DB:-jimflow_test}"
DB_USER="${JIMFLOW_TEST_POSTGRES_USER:-jimflow}"
DB_PASSWORD="${JIMFLOW_TEST_POSTGRES_PASSWORD:-jimflow}"

if ! command -v pg_lsclusters >/dev/null 2>&1 || [ -z "$(pg_lsclusters -h 2>/dev/null)" ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq postgresql >/dev/null
fi

read -r VERSION CLUSTER PORT STATUS _ < <(pg_lsclusters -h | head -n 1)
if [ "$STATUS" != "online" ]; then
  pg_ctlcluster "$VERSION" "$CLUSTER" start
fi

for _ in $(seq 1 30); do
  if su postgres -c "psql -p $PORT -tAc 'select 1'" >/dev/null 2>&1; then
    break
  fi
  sleep 1
done

psql_admin() { su postgres -c "psql -p $PORT -v ON_ERROR_STOP=1 -tAc \"$1\""; }

if [ "$(psql_admin "select 1 from pg_roles where rolname = '$DB_USER'")" != "1" ]; then
  psql_admin "create role $DB_USER login password '$DB_PASSWORD'"
fi
for database in "$DB_NAME" "${JIMFLOW_TEST_TEMPORAL_DB:-temporal_test}" \
    "${JIMFLOW_TEST_TEMPORAL_VISIBILITY_DB:-temporal_visibility_test}" temporal temporal_visibility; do
  if [ "$(psql_admin "select 1 from pg_database where datname = '$database'")" != "1" ]; then
    psql_admin "create database $database owner $DB_USER"
  fi
done

echo "PostgreSQL $VERSION/$CLUSTER online on port $PORT: jdbc:postgresql://localhost:$PORT/$DB_NAME (user $DB_USER)"
