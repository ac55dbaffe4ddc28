#!/usr/bin/env bash
# Makes the store fixtures of the upgrade tests (crates/server/tests/upgrade.rs):
# stores written by an older `chimera` binary, which the current code must
# open and upgrade in place.
#
#   scripts/make-store-fixtures.sh OLD_CHIMERA_BINARY OUT_DIR
#
# The fixtures in the repository were made by the binary of commit ef93987
# (`git worktree add /tmp/old ef93987 && cd /tmp/old && cargo build --bin
# chimera`) into crates/server/tests/fixtures/store-ef93987/:
#
#   chimera.sqlite3  the SQLite data directory's store
#   postgres.sql     the same content written to PostgreSQL, as `pg_dump`
#                    writes it (plain SQL, no owner, no privileges)
#   games.txt        the web games: id, token, other token or invite, what it is
#
# Each store holds web games of several modes and variants with moves (a
# hotseat game, a joined friend game with a clock, a friend game whose invite
# is open, an open seek, a finished game, an engine game) and two lab
# studies: `fixture-done` (complete) and `fixture-part`, killed part-way
# (SIGKILL) so that it has stored games, claims marked done and claims left
# by the dead runner, and resumes.
#
# PostgreSQL: a throwaway cluster (initdb + pg_ctl, trust authentication, a
# loopback port) in a temporary directory, removed at the end; as root it
# runs as the user `postgres` (scripts/setup-postgres.sh installs the
# binaries). Needs python3 (scripts/store_fixture_client.py), sqlite3, psql
# and pg_dump.
set -euo pipefail

old=${1:?usage: make-store-fixtures.sh OLD_CHIMERA_BINARY OUT_DIR}
out=${2:?usage: make-store-fixtures.sh OLD_CHIMERA_BINARY OUT_DIR}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)
work=$(mktemp -d /tmp/chimera-fixtures.XXXXXX)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  if [ -n "${pgdata:-}" ] && [ -f "$pgdata/postmaster.pid" ]; then
    as_pg "$pgbin/pg_ctl" stop -D "$pgdata" -m immediate -w >/dev/null 2>&1 || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

wait_http() {
  for _ in $(seq 1 300); do
    curl -fsS "http://$1/api/health" >/dev/null 2>&1 && return 0
    sleep 0.2
  done
  echo "the server on $1 did not come up" >&2
  return 1
}

# fill ARGS...: the web games and the two studies, through the old binary;
# ARGS select the store (--data DIR or --database URL). $count_sql runs SQL
# on that store and prints the number.
fill() {
  local port addr serve
  port=$(free_port)
  addr="127.0.0.1:$port"
  "$old" serve --addr "$addr" "$@" >"$work/serve.log" 2>&1 &
  serve=$!
  pids+=("$serve")
  wait_http "$addr"
  python3 "$here/store_fixture_client.py" "$addr" >"$work/games.txt"
  kill -TERM "$serve"
  wait "$serve" || true
  # A complete study.
  "$old" lab "$@" run fixture-done --variant chess --games 4 --nodes 100 --max-plies 60 --concurrency 1 \
    >"$work/lab-done.log" 2>&1
  # A study killed part-way: at least 3 of its 40 games stored.
  "$old" lab "$@" run fixture-part --variant genie --games 40 --nodes 100 --max-plies 60 --concurrency 2 \
    >"$work/lab-part.log" 2>&1 &
  local lab=$!
  pids+=("$lab")
  for _ in $(seq 1 600); do
    [ "$(count "SELECT COUNT(*) FROM lab_games WHERE study_id = 'fixture-part'")" -ge 3 ] && break
    sleep 0.1
  done
  kill -9 "$lab"
  wait "$lab" || true
  local n
  n=$(count "SELECT COUNT(*) FROM lab_games WHERE study_id = 'fixture-part'")
  if [ "$n" -lt 3 ] || [ "$n" -ge 40 ]; then
    echo "fixture-part: $n games stored, wanted a study stopped part-way" >&2
    exit 1
  fi
}

# --- SQLite ---
count() { sqlite3 "$work/data/chimera.sqlite3" "$1"; }
fill --data "$work/data"
# Everything into the main file (no -wal/-shm beside it), compacted.
sqlite3 "$work/data/chimera.sqlite3" "PRAGMA wal_checkpoint(TRUNCATE); VACUUM;" >/dev/null
rm -f "$work/data/chimera.sqlite3-wal" "$work/data/chimera.sqlite3-shm"
cp "$work/data/chimera.sqlite3" "$out/chimera.sqlite3"
cp "$work/games.txt" "$out/games.txt"
echo "SQLite: $(count "SELECT COUNT(*) FROM games") games, $(count "SELECT COUNT(*) FROM lab_games") lab games, \
$(count "SELECT COUNT(*) FROM lab_claims WHERE done = 0") open claims; $(du -h "$out/chimera.sqlite3" | cut -f1)"

# --- PostgreSQL ---
pgbin=$(dirname "$(readlink -f "$(command -v pg_ctl 2>/dev/null || ls -d /usr/lib/postgresql/*/bin/pg_ctl | sort -V | tail -1)")")
pgdir="$work/pg"
pgdata="$pgdir/data"
mkdir -p "$pgdir"
chmod 700 "$pgdir"
if [ "$(id -u)" = "0" ]; then
  chown postgres:postgres "$pgdir"
  chmod 755 "$work"
  as_pg() { runuser -u postgres -- "$@"; }
else
  as_pg() { "$@"; }
fi
as_pg "$pgbin/initdb" -D "$pgdata" -U chimera -A trust -E UTF8 --no-locale --no-sync >/dev/null
pgport=$(free_port)
as_pg "$pgbin/pg_ctl" start -D "$pgdata" -l "$pgdir/log" -w \
  -o "-p $pgport -k $pgdir -c listen_addresses=127.0.0.1 -c fsync=off" >/dev/null
"$pgbin/createdb" -h 127.0.0.1 -p "$pgport" -U chimera fixture
url="postgres://chimera@127.0.0.1:$pgport/fixture"
count() { "$pgbin/psql" -X -A -t -d "$url" -c "$1"; }
fill --database "$url"
# No owner or privileges (the test restores it as another role). The
# `\restrict`/`\unrestrict` lines that recent pg_dump releases write are
# dropped, so that older psql releases can read the file too.
"$pgbin/pg_dump" --no-owner --no-privileges --format=plain -d "$url" | grep -v '^\\\(un\)\?restrict ' >"$out/postgres.sql"
cp "$work/games.txt" "$out/postgres-games.txt"
echo "PostgreSQL: $(count "SELECT COUNT(*) FROM games") games, $(count "SELECT COUNT(*) FROM lab_games") lab games, \
$(count "SELECT COUNT(*) FROM lab_claims WHERE done = 0") open claims; $(du -h "$out/postgres.sql" | cut -f1)"
