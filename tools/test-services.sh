#!/usr/bin/env bash
# What the web app's tests need besides Python packages, from Debian's packages only:
# chromium for Playwright (never a downloaded browser), npm for tsc (the browser code's types)
# and a running PostgreSQL with a role and a database for the tests. Safe to run again: it
# installs and creates only what is missing.
set -euo pipefail

SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi

missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
# npm (with Node.js) only runs the type checker of the browser code: `make jscheck`.
command -v npm >/dev/null 2>&1 || missing+=(nodejs npm)
if ! ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; then missing+=(postgresql); fi
if [ "${#missing[@]}" -gt 0 ]; then
  echo "test-services: installing ${missing[*]} (Debian packages)"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

version="$(ls /usr/lib/postgresql | sort -V | tail -n 1)"
if ! pg_lsclusters -h | awk '{print $1" "$2}' | grep -qx "$version main"; then
  $SUDO pg_createcluster "$version" main >/dev/null
fi
if ! pg_lsclusters -h | awk -v v="$version" '$1 == v && $2 == "main" {print $4}' | grep -qx online; then
  $SUDO pg_ctlcluster "$version" main start
fi
port="$(pg_lsclusters -h | awk -v v="$version" '$1 == v && $2 == "main" {print $3}')"
for _ in $(seq 1 60); do
  pg_isready -q -h 127.0.0.1 -p "$port" && break
  sleep 0.5
done

as_postgres() { $SUDO su postgres -c "psql -p $port -qtAc \"$1\""; }
if [ "$(as_postgres "SELECT 1 FROM pg_roles WHERE rolname = 'stichwerk'")" != 1 ]; then
  as_postgres "CREATE ROLE stichwerk LOGIN PASSWORD 'stichwerk'"
fi
if [ "$(as_postgres "SELECT 1 FROM pg_database WHERE datname = 'stichwerk_test'")" != 1 ]; then
  as_postgres "CREATE DATABASE stichwerk_test OWNER stichwerk"
fi
echo "test-services: chromium $(chromium --version 2>/dev/null | awk '{print $2}'), PostgreSQL $version on port $port"
if [ "$port" != 5432 ]; then
  echo "test-services: set STICHWERK_TEST_PG_URL=postgresql+psycopg://stichwerk:stichwerk@127.0.0.1:$port/stichwerk_test"
fi
