#!/usr/bin/env bash
# Installs PostgreSQL's server binaries (Debian's `postgresql` package) for
# the multi-instance tests (crates/cli/tests/scale_out.rs), when missing.
# The tests start a throwaway cluster of their own (initdb + pg_ctl in a
# temporary directory, a loopback port); nothing here starts a server.
#
# The binaries are looked for in PATH and in /usr/lib/postgresql/*/bin (where
# Debian puts them, outside PATH). initdb refuses to run as root, so as root
# the tests run the cluster as the unprivileged user `postgres` (the package
# creates it) or, failing that, `nobody`; this script checks one exists.
#
# Skip the PostgreSQL tests instead: CHIMERA_SKIP_POSTGRES=1.
set -euo pipefail

find_bin() {
  if command -v initdb >/dev/null 2>&1 && command -v pg_ctl >/dev/null 2>&1; then
    dirname "$(readlink -f "$(command -v pg_ctl)")"
    return 0
  fi
  local d
  for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
    if [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ] && [ -x "$d/postgres" ]; then
      echo "$d"
      return 0
    fi
  done
  return 1
}

if ! bin=$(find_bin); then
  SUDO=""
  if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update
  # The package's post-install script may try to start a cluster of its
  # own; the tests never use it.
  $SUDO apt-get install -y postgresql
  if ! bin=$(find_bin); then
    echo "setup-postgres.sh: postgresql installed but no initdb/pg_ctl found in PATH or /usr/lib/postgresql/*/bin" >&2
    exit 1
  fi
fi

if [ "$(id -u)" = "0" ]; then
  if id -u postgres >/dev/null 2>&1; then
    user=postgres
  elif id -u nobody >/dev/null 2>&1; then
    user=nobody
  else
    echo "setup-postgres.sh: running as root and neither user 'postgres' nor 'nobody' exists to run the test cluster" >&2
    exit 1
  fi
  if ! command -v runuser >/dev/null 2>&1 && ! command -v setpriv >/dev/null 2>&1; then
    echo "setup-postgres.sh: running as root and neither runuser nor setpriv (util-linux) is installed" >&2
    exit 1
  fi
  echo "postgresql present: $bin ($("$bin/postgres" --version)); test clusters run as user '$user'"
else
  echo "postgresql present: $bin ($("$bin/postgres" --version))"
fi
