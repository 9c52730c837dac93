#!/bin/sh
# PostgreSQL's first start on a new data volume (docker-compose.yml mounts this file under
# /docker-entrypoint-initdb.d/): jimflow's store gets its own account, jimflow_store, with the
# password of the secret store-password, and its own database, jimflow, which it owns. The account
# is no superuser, cannot create databases or roles, and has no rights on Temporal's databases
# (temporal, temporal_visibility, owned by Temporal's account). For an existing volume, run the
# same statements once with psql as the temporal account (docs/deployment.md).
set -eu
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname postgres \
  -v store_password="$(cat /run/secrets/store-password)" <<'SQL'
CREATE ROLE jimflow_store LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION PASSWORD :'store_password';
CREATE DATABASE jimflow OWNER jimflow_store;
REVOKE ALL ON DATABASE jimflow FROM PUBLIC;
SQL
