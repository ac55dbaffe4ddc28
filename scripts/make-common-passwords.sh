#!/usr/bin/env bash
# Regenerates crates/auth/data/common-passwords.txt, the list of common
# passwords that the password policy refuses (crates/auth, docs/accounts.md
# "The common-password list").
#
#   scripts/make-common-passwords.sh            rewrite the file
#   scripts/make-common-passwords.sh --check    fail if the file differs
#
# Source: the npm package @zxcvbn-ts/language-common, pinned below by version
# and by the registry's sha512 integrity, MIT licence (its LICENSE.txt is
# crates/auth/data/LICENSE-zxcvbn-ts.txt). Its src/passwords.json holds
# 49,233 passwords, lower-cased and ordered by how often they occur in the
# 10 million leaked passwords that Mark Burnett published in 2015 (the
# zxcvbn-ts data scripts build it from that corpus). The file keeps the
# first COUNT of them that are at least 8 characters long, in that order
# (shorter ones are refused by the length rule anyway), one a line, after a
# header of '#' lines naming the source.
#
# Needs npm (`npm pack` fetches the package from the npm registry) and node
# (to check its integrity and read the JSON).
set -euo pipefail

package=@zxcvbn-ts/language-common
version=4.1.3
integrity=sha512-g2bg4skmlJG9aJqC/nWziZzgYpSe/f3rKeGobrkdFiOrfZVFqqzUgC6BUQWuX54Sua9j0Jxxt+1bf4f/Mal1Kg==
count=10000
min_chars=8

here=$(cd "$(dirname "$0")/.." && pwd)
out=$here/crates/auth/data/common-passwords.txt
check=false
if [[ ${1:-} == --check ]]; then check=true; fi

work=$(mktemp -d /tmp/chimera-common-passwords.XXXXXX)
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm pack --silent "$package@$version" >/dev/null)
tarball=$(ls "$work"/*.tgz)
got=$(node -e 'const c = require("crypto"), fs = require("fs");
  process.stdout.write("sha512-" + c.createHash("sha512").update(fs.readFileSync(process.argv[1])).digest("base64"))' "$tarball")
if [[ $got != "$integrity" ]]; then
  echo "make-common-passwords: $package@$version has integrity $got, expected $integrity" >&2
  exit 1
fi
tar -xzf "$tarball" -C "$work" package/src/passwords.json package/LICENSE.txt

node - "$work/package/src/passwords.json" "$count" "$min_chars" "$package@$version" >"$work/list.txt" <<'EOF'
const [file, count, minChars, source] = process.argv.slice(2);
const all = JSON.parse(require('fs').readFileSync(file, 'utf8'));
const kept = [];
const seen = new Set();
for (const p of all) {
  // Length in Unicode scalar values, as the policy counts; a line that would
  // read as a comment or has spaces around it could not be told apart.
  if ([...p].length < Number(minChars) || p.startsWith('#') || p !== p.trim()) continue;
  const key = p.toLowerCase();
  if (seen.has(key)) continue;
  seen.add(key);
  kept.push(key);
  if (kept.length === Number(count)) break;
}
console.log(`# ${kept.length} common passwords of ${minChars}+ characters, most common first, lower-cased.`);
console.log(`# Source: npm ${source}, src/passwords.json (MIT licence, Copyright (c) 2012-2016 Dan Wheeler`);
console.log(`# and Dropbox, Inc., Copyright (c) 2021 @zxcvbn-ts: see LICENSE-zxcvbn-ts.txt beside this file),`);
console.log('# built from the 10 million leaked passwords that Mark Burnett published in 2015.');
console.log('# Regenerate with scripts/make-common-passwords.sh; do not edit by hand.');
for (const p of kept) console.log(p);
EOF

if $check; then
  if ! cmp -s "$work/list.txt" "$out"; then
    echo "make-common-passwords: $out differs from what $package@$version gives" >&2
    exit 1
  fi
  if ! cmp -s "$work/package/LICENSE.txt" "$(dirname "$out")/LICENSE-zxcvbn-ts.txt"; then
    echo "make-common-passwords: LICENSE-zxcvbn-ts.txt differs from the package's LICENSE.txt" >&2
    exit 1
  fi
  echo "make-common-passwords: $out is what $package@$version gives" >&2
else
  mkdir -p "$(dirname "$out")"
  cp "$work/list.txt" "$out"
  cp "$work/package/LICENSE.txt" "$(dirname "$out")/LICENSE-zxcvbn-ts.txt"
  echo "make-common-passwords: wrote $(($(wc -l <"$out") - 5)) passwords to $out" >&2
fi
