#!/usr/bin/env bash
# Creates .venv at the workspace root (if missing) and installs the pinned
# Python tools of scripts/requirements.txt. Idempotent and quiet; when the
# venv already holds exactly these requirements it returns at once.
#
# Uses $PYTHON (default: python3) to create the venv.
set -euo pipefail
cd "$(dirname "$0")/.."

req=scripts/requirements.txt
venv=.venv
stamp=$venv/.chimera-requirements

if [[ -x $venv/bin/python && -f $stamp ]] && cmp -s "$req" "$stamp"; then
    exit 0
fi

py=${PYTHON:-python3}
if ! command -v "$py" >/dev/null 2>&1; then
    echo "setup-python: '$py' not found; install Python 3 (or set PYTHON=/path/to/python3)" >&2
    exit 1
fi
if [[ ! -x $venv/bin/python ]]; then
    echo "setup-python: creating $venv" >&2
    if ! "$py" -m venv "$venv"; then
        echo "setup-python: '$py -m venv' failed; on Debian/Ubuntu install python3-venv" >&2
        rm -rf "$venv"
        exit 1
    fi
fi
echo "setup-python: installing $(grep -v '^#' "$req" | xargs) into $venv" >&2
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$req"
# Prove the imports work before stamping the venv as ready.
"$venv/bin/python" -c 'import chess, pyffish' 
cp "$req" "$stamp"
