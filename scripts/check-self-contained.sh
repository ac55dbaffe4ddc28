#!/usr/bin/env bash
# Fails when any file of the repository reads, links or names the team's
# reference folder that sits beside the repository during development: the
# repository must be the whole product (its rules pages, oracle config and
# data are its own files). Works in a git checkout and in a plain copy.
set -euo pipefail
cd "$(dirname "$0")/.."
# The folder's name, spelt so that this script does not match itself.
pattern='shared''/'
if git rev-parse --git-dir >/dev/null 2>&1; then
    hits=$(git grep -n -I "$pattern" -- . || true)
else
    hits=$(grep -rnI --exclude-dir=target --exclude-dir=.venv --exclude-dir=.git --exclude-dir=corpus \
        --exclude-dir=artifacts --exclude-dir=data "$pattern" . || true)
fi
if [[ -n $hits ]]; then
    echo "check-self-contained: these lines name a folder outside the repository:" >&2
    echo "$hits" >&2
    exit 1
fi
echo "check-self-contained: no file names a folder outside the repository" >&2
