#!/usr/bin/env bash
# Starts the official Temporal server (pinned version, built from its Go module) on PostgreSQL,
# without containers: the production topology of jimflow on one machine.
#
#   1. builds the server and its schema tool once into .tools/temporal-server/<version>/ (needs Go;
#      later runs reuse them);
#   2. creates or migrates the persistence and visibility databases with the schema tool;
#   3. starts the server in the background with jimflow's dynamic config
#      (docker/temporal/dynamicconfig.yaml) and waits until it serves;
#   4. creates the namespace with an explicit retention (or sets the retention of an existing one);
#   5. registers jimflow's search attributes (./jimflow setup).
#
# Stop it with scripts/stop-temporal-server.sh (same --dir). Run with --help for the options.
set -euo pipefail

TEMPORAL_SERVER_VERSION="1.29.1"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

usage() {
  cat <<EOF
Usage: scripts/start-temporal-server.sh [options]

Starts the official Temporal server v${TEMPORAL_SERVER_VERSION} on PostgreSQL in the background.

Options (environment variable in brackets):
  --dir DIR             state directory: generated config, log, pid  [JIMFLOW_TEMPORAL_DIR]
                        (default: data/temporal-server)
  --ip ADDRESS          address the server listens on (default: 127.0.0.1)
  --port N|auto         frontend gRPC port; auto picks a free one (default: 7233)
  --internal-ports LIST eight comma-separated ports below 32768 for the frontend's HTTP and
                        membership ports and the history, matching and worker services
                        (default: free ones picked at every start)
  --namespace NAME      namespace to create (default: default)
  --retention DURATION  how long closed executions stay in Temporal, e.g. 720h (default: 720h)
  --db-host HOST        PostgreSQL host          [JIMFLOW_TEMPORAL_DB_HOST] (default: localhost)
  --db-port N           PostgreSQL port          [JIMFLOW_TEMPORAL_DB_PORT] (default: 5432)
  --db-user USER        PostgreSQL user          [JIMFLOW_TEMPORAL_DB_USER] (default: jimflow)
  --db-password PW      PostgreSQL password      [JIMFLOW_TEMPORAL_DB_PASSWORD] (default: jimflow)
  --db NAME             persistence database     [JIMFLOW_TEMPORAL_DB] (default: temporal)
  --visibility-db NAME  visibility database      [JIMFLOW_TEMPORAL_VISIBILITY_DB]
                        (default: temporal_visibility)
  --history-shards N    history shards; fixed when the databases are first set up (default: 4)
  --log-level LEVEL     server log level (default: warn)
  --reset               drop every Temporal table first (all executions and schedules are lost)
  --build-only          only build (or find) the server and schema tool, print their directory

The databases are created when missing (the user needs CREATEDB for that; otherwise create them
owned by the user first). scripts/start-test-postgres.sh starts a local PostgreSQL with such a user.
Prints the address on the last line; <dir>/address and <dir>/temporal-server.pid hold it and the pid.
EOF
}

dir="${JIMFLOW_TEMPORAL_DIR:-$root/data/temporal-server}"
ip="127.0.0.1"
port="7233"
internal_ports=""
namespace="default"
retention="720h"
db_host="${JIMFLOW_TEMPORAL_DB_HOST:-localhost}"
db_port="${JIMFLOW_TEMPORAL_DB_PORT:-5432}"
db_user="${JIMFLOW_TEMPORAL_DB_USER:-jimflow}"
db_password="${JIMFLOW_TEMPORAL_DB_PASSWORD:-jimflow}"
db="${JIMFLOW_TEMPORAL_DB:-temporal}"
visibility_db="${JIMFLOW_TEMPORAL_VISIBILITY_DB:-temporal_visibility}"
history_shards="4"
log_level="warn"
reset=false
build_only=false

fail() {
  echo "start-temporal-server: $*" >&2
  exit 1
}

while [ $# -gt 0 ]; do
  case "$1" in
    --dir) dir="${2:?--dir needs a value}"; shift 2 ;;
    --ip) ip="${2:?--ip needs a value}"; shift 2 ;;
    --port) port="${2:?--port needs a value}"; shift 2 ;;
    --internal-ports) internal_ports="${2:?--internal-ports needs a value}"; shift 2 ;;
    --namespace) namespace="${2:?--namespace needs a value}"; shift 2 ;;
    --retention) retention="${2:?--retention needs a value}"; shift 2 ;;
    --db-host) db_host="${2:?--db-host needs a value}"; shift 2 ;;
    --db-port) db_port="${2:?--db-port needs a value}"; shift 2 ;;
    --db-user) db_user="${2:?--db-user needs a value}"; shift 2 ;;
    --db-password) db_password="${2?--db-password needs a value}"; shift 2 ;;
    --db) db="${2:?--db needs a value}"; shift 2 ;;
    --visibility-db) visibility_db="${2:?--visibility-db needs a value}"; shift 2 ;;
    --history-shards) history_shards="${2:?--history-shards needs a value}"; shift 2 ;;
    --log-level) log_level="${2:?--log-level needs a value}"; shift 2 ;;
    --reset) reset=true; shift ;;
    --build-only) build_only=true; shift ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; fail "unknown option $1" ;;
  esac
done

if [ "$port" != auto ] && { ! [[ "$port" =~ ^[0-9]+$ ]] || [ "$port" -lt 1 ] || [ "$port" -gt 32767 ]; }; then
  fail "--port must be auto or a number from 1 to 32767 (Temporal stores ports as a smallint), not $port"
fi

# --- 1. The server and schema tool, built once ------------------------------------------------

tools="$root/.tools/temporal-server/$TEMPORAL_SERVER_VERSION"
server_bin="$tools/bin/temporal-server"
sql_tool="$tools/bin/temporal-sql-tool"
schema_dir="$tools/schema/postgresql/v12"

find_go() {
  local candidate
  for candidate in "$(command -v go 2>/dev/null || true)" /usr/local/go/bin/go /usr/lib/go/bin/go; do
    if [ -n "$candidate" ] && [ -x "$candidate" ]; then
      echo "$candidate"
      return 0
    fi
  done
  return 1
}

build_server() {
  local go
  go="$(find_go)" || fail "Go is needed to build the Temporal server v$TEMPORAL_SERVER_VERSION once (Go 1.21 or newer; a newer toolchain, if needed, comes from the Go module proxy). Install Go and run again."
  local go_version
  go_version="$("$go" env GOVERSION)"
  case "$go_version" in
    go1.[0-9]|go1.[0-9].*|go1.1[0-9]|go1.1[0-9].*|go1.20|go1.20.*)
      fail "$go is $go_version; building Temporal v$TEMPORAL_SERVER_VERSION needs Go 1.21 or newer." ;;
  esac
  echo "start-temporal-server: building the official Temporal server v$TEMPORAL_SERVER_VERSION and its schema tool with $go_version (a few minutes the first time) ..." >&2
  local staging="$tools.building"
  rm -rf "$staging"
  mkdir -p "$staging/bin"
  GOBIN="$staging/bin" GOFLAGS=-mod=mod GOTOOLCHAIN="${GOTOOLCHAIN:-auto}" "$go" install \
    "go.temporal.io/server/cmd/server@v$TEMPORAL_SERVER_VERSION" \
    "go.temporal.io/server/cmd/tools/sql@v$TEMPORAL_SERVER_VERSION" >&2 \
    || fail "building the Temporal server failed (see the go output above)"
  mv "$staging/bin/server" "$staging/bin/temporal-server"
  mv "$staging/bin/sql" "$staging/bin/temporal-sql-tool"
  # The schemas ship in the module; keep a copy beside the binaries so a cleaned module cache
  # does not matter later.
  local module
  module="$("$go" list -m -mod=mod -f '{{.Dir}}' "go.temporal.io/server@v$TEMPORAL_SERVER_VERSION" 2>/dev/null || true)"
  if [ -z "$module" ] || [ ! -d "$module/schema/postgresql/v12" ]; then
    module="$("$go" env GOMODCACHE)/go.temporal.io/server@v$TEMPORAL_SERVER_VERSION"
  fi
  [ -d "$module/schema/postgresql/v12" ] || fail "no PostgreSQL schema in $module"
  mkdir -p "$staging/schema/postgresql"
  cp -R "$module/schema/postgresql/v12" "$staging/schema/postgresql/v12"
  chmod -R u+w "$staging/schema"
  rm -rf "$tools"
  mv "$staging" "$tools"
}

if [ ! -x "$server_bin" ] || [ ! -x "$sql_tool" ] || [ ! -d "$schema_dir" ]; then
  build_server
fi
if [ "$build_only" = true ]; then
  echo "$tools"
  exit 0
fi

temporal_cli="$(bash "$root/scripts/install-temporal-cli.sh")"
mkdir -p "$dir"
dir="$(cd "$dir" && pwd)"
: >"$dir/schema-tool.log"

# --- 2. Databases --------------------------------------------------------------------------------

# The schema tool logs its failures and still exits 0 on some of them: its output decides.
sql() {
  local database="$1"
  shift
  local output
  output="$(SQL_PASSWORD="$db_password" "$sql_tool" --plugin postgres12 --endpoint "$db_host" \
    --port "$db_port" --user "$db_user" --database "$database" "$@" 2>&1)" || true
  printf '%s\n' "$output" >>"$dir/schema-tool.log"
  if grep -q 'ERROR' <<<"$output"; then
    # "<time> ERROR <message> {"error": "<cause>", ...}" -> "<message>: <cause>"
    sql_error="$(grep 'ERROR' <<<"$output" | sed -e 's/\x1b\[[0-9;]*m//g' \
      -e 's/.*ERROR[[:space:]]*\([^{]*[^{[:space:]]\)[[:space:]]*{"error": "\(.*\)", "logging-call-at.*/\1: \2/' \
      | sed 's/\.: /: /' | head -n 3)"
    return 1
  fi
}

missing_database() { grep -q "database .\{0,2\}$1.\{0,2\} does not exist" <<<"$sql_error"; }

create_database() {
  sql "$1" create-database \
    || fail "cannot create database $1 on $db_host:$db_port as $db_user ($sql_error). Create it owned by $db_user (createdb -O $db_user $1), or start a local PostgreSQL with scripts/start-test-postgres.sh."
}

# Creates the database if needed, sets up Temporal's version table in a new (or, with --reset,
# emptied) one, and migrates it to this version's schema.
prepare_database() {
  local database="$1" versioned="$schema_dir/$2/versioned"
  if [ "$reset" = true ]; then
    if ! sql "$database" setup-schema --version 0.0 --overwrite; then
      missing_database "$database" || fail "cannot reset the tables of $database: $sql_error"
      create_database "$database"
      sql "$database" setup-schema --version 0.0 || fail "cannot set up $database: $sql_error"
    fi
  elif sql "$database" update-schema --schema-dir "$versioned"; then
    return 0
  elif missing_database "$database"; then
    create_database "$database"
    sql "$database" setup-schema --version 0.0 || fail "cannot set up $database: $sql_error"
  elif grep -q 'schema_version.* does not exist' <<<"$sql_error"; then
    sql "$database" setup-schema --version 0.0 || fail "cannot set up $database: $sql_error"
  else
    fail "cannot reach or migrate $database on $db_host:$db_port as $db_user: $sql_error"
  fi
  sql "$database" update-schema --schema-dir "$versioned" \
    || fail "cannot migrate $database to the schema of Temporal v$TEMPORAL_SERVER_VERSION: $sql_error"
}

pid_file="$dir/temporal-server.pid"
address_file="$dir/address"
log_file="$dir/temporal-server.log"

if [ -f "$pid_file" ] && grep -q temporal-server "/proc/$(cat "$pid_file")/cmdline" 2>/dev/null; then
  fail "a server from $dir is running already (pid $(cat "$pid_file"), $(cat "$address_file" 2>/dev/null)); stop it with scripts/stop-temporal-server.sh --dir $dir"
fi

prepare_database "$db" temporal
prepare_database "$visibility_db" visibility

# --- 3. Start ------------------------------------------------------------------------------------

# A port nobody listens on, below 32768: Temporal stores membership ports as a PostgreSQL smallint.
listening() { (exec 3<>"/dev/tcp/$ip/$1") 2>/dev/null; }

free_port() {
  local candidate
  for _ in $(seq 1 200); do
    candidate=$((20000 + RANDOM % 12000))
    if ! listening "$candidate" && [[ " ${ports[*]:-} $port " != *" $candidate "* ]]; then
      echo "$candidate"
      return 0
    fi
  done
  fail "no free port found between 20000 and 32000"
}

if [ "$port" = auto ]; then
  port="$(free_port)"
elif listening "$port"; then
  fail "something listens on $ip:$port already; pick another --port (or --port auto)"
fi
ports=()
if [ -n "$internal_ports" ]; then
  IFS=, read -r -a ports <<<"$internal_ports"
  [ "${#ports[@]}" -eq 8 ] || fail "--internal-ports needs eight ports, not $internal_ports"
  for candidate in "${ports[@]}"; do
    { [[ "$candidate" =~ ^[0-9]+$ ]] && [ "$candidate" -ge 1 ] && [ "$candidate" -le 32767 ]; } \
      || fail "--internal-ports: $candidate is not a port from 1 to 32767"
    ! listening "$candidate" || fail "--internal-ports: something listens on $ip:$candidate already"
  done
else
  for _ in 1 2 3 4 5 6 7 8; do ports+=("$(free_port)"); done
fi

config_dir="$dir/config"
mkdir -p "$config_dir"
# It holds the database password.
(umask 077 && : >"$config_dir/development.yaml")
cat >"$config_dir/development.yaml" <<EOF
# Generated by scripts/start-temporal-server.sh; rewritten at every start.
log:
  stdout: true
  level: $log_level
persistence:
  defaultStore: postgres-default
  visibilityStore: postgres-visibility
  numHistoryShards: $history_shards
  datastores:
    postgres-default:
      sql:
        pluginName: postgres12
        databaseName: "$db"
        connectAddr: "$db_host:$db_port"
        connectProtocol: tcp
        user: "$db_user"
        password: "$db_password"
        maxConns: 20
        maxIdleConns: 20
        maxConnLifetime: 1h
    postgres-visibility:
      sql:
        pluginName: postgres12
        databaseName: "$visibility_db"
        connectAddr: "$db_host:$db_port"
        connectProtocol: tcp
        user: "$db_user"
        password: "$db_password"
        maxConns: 10
        maxIdleConns: 10
        maxConnLifetime: 1h
global:
  membership:
    maxJoinDuration: 30s
    broadcastAddress: "$ip"
services:
  frontend:
    rpc: {grpcPort: $port, membershipPort: ${ports[0]}, bindOnIP: "$ip", httpPort: ${ports[1]}}
  history:
    rpc: {grpcPort: ${ports[2]}, membershipPort: ${ports[3]}, bindOnIP: "$ip"}
  matching:
    rpc: {grpcPort: ${ports[4]}, membershipPort: ${ports[5]}, bindOnIP: "$ip"}
  worker:
    rpc: {grpcPort: ${ports[6]}, membershipPort: ${ports[7]}, bindOnIP: "$ip"}
clusterMetadata:
  enableGlobalNamespace: false
  failoverVersionIncrement: 10
  masterClusterName: active
  currentClusterName: active
  clusterInformation:
    active:
      enabled: true
      initialFailoverVersion: 1
      rpcName: frontend
      rpcAddress: "$ip:$port"
dcRedirectionPolicy:
  policy: noop
dynamicConfigClient:
  filepath: "$root/docker/temporal/dynamicconfig.yaml"
  pollInterval: 10s
EOF

address="$ip:$port"
echo "$address" >"$address_file"
echo "start-temporal-server: starting Temporal v$TEMPORAL_SERVER_VERSION on $address (log: $log_file) ..." >&2
(cd "$dir" && exec setsid "$server_bin" --root "$dir" --config config --env development --allow-no-auth start) \
  >>"$log_file" 2>&1 </dev/null &
server_pid=$!
echo "$server_pid" >"$pid_file"

deadline=$((SECONDS + ${JIMFLOW_TEMPORAL_START_TIMEOUT:-180}))
until "$temporal_cli" operator cluster health --address "$address" 2>/dev/null | grep -q SERVING; do
  if ! kill -0 "$server_pid" 2>/dev/null; then
    tail -n 20 "$log_file" >&2
    fail "the server exited during start (log: $log_file)"
  fi
  if [ "$SECONDS" -ge "$deadline" ]; then
    kill -TERM "$server_pid" 2>/dev/null || true
    tail -n 20 "$log_file" >&2
    fail "the server did not serve on $address in time (log: $log_file)"
  fi
  sleep 1
done

# --- 4. Namespace with an explicit retention -----------------------------------------------------

tcli() { "$temporal_cli" --address "$address" "$@"; }
if tcli operator namespace describe --namespace "$namespace" >/dev/null 2>&1; then
  tcli operator namespace update --namespace "$namespace" --retention "$retention" >/dev/null
else
  tcli operator namespace create --namespace "$namespace" --retention "$retention" >/dev/null
fi

# --- 5. jimflow's search attributes, through jimflow's own setup command -------------------------

# The namespace becomes visible to every frontend call within seconds of its creation.
deadline=$((SECONDS + 60))
until tcli operator search-attribute list --namespace "$namespace" >/dev/null 2>&1; do
  [ "$SECONDS" -lt "$deadline" ] || fail "namespace $namespace not usable in time"
  sleep 1
done
"$root/jimflow" setup --address "$address" --namespace "$namespace" >&2 \
  || fail "jimflow setup could not register the search attributes in $namespace"

echo "start-temporal-server: Temporal v$TEMPORAL_SERVER_VERSION serves namespace $namespace (retention $retention) on $address, pid $server_pid; stop: scripts/stop-temporal-server.sh --dir $dir" >&2
echo "$address"
