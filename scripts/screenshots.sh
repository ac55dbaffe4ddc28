#!/usr/bin/env bash
# Makes the game-page screenshots of each variant (a 1366x768 window and a
# 390x844 phone), of a game's computer review, of each look (theme,
# board, pieces) and of the lobby in each of the site's languages by
# running the board's layout and review browser tests and browser_csp's
# look and language tests, then copies
# them to docs/screenshots/. Needs chromium and chromedriver
# (scripts/setup-browser.sh).
#
#   scripts/screenshots.sh          # run the tests, then copy
#   scripts/screenshots.sh --copy   # copy what target/screenshots/ holds
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" != "--copy" ]; then
  cargo test -p chimera-server --test browser_board -- laptop_layout_fits phone_layout_fits laptop_game_review phone_game_review
  cargo test -p chimera-server --test browser_pages -- browser_look_is_chosen_and_remembered browser_speaks_the_readers_language
fi
mkdir -p docs/screenshots
n=0
# Copies target/screenshots/NAME.png to docs/screenshots/, or stops when a
# test did not make it.
copy_shot() {
  local src="target/screenshots/$1.png"
  if [ ! -f "$src" ]; then
    echo "missing $src: run scripts/screenshots.sh without --copy" >&2
    exit 1
  fi
  cp "$src" "docs/screenshots/$1.png"
  n=$((n + 1))
}
# The variants with a rules page of their own (both Genie rule sets share one).
for v in $(cargo run --quiet -p chimera -- variants --ids | grep -vx genie-ownhalf); do
  for size in 1366x768 phone; do copy_shot "game-$v-$size"; done
done
# A finished game's computer review on the game page.
for size in 1366x768 phone; do copy_shot "review-$size"; done
# Each look: both themes, the four boards, both piece sets.
for look in dark-blue-disc light-blue-disc light-green-classic dark-grey-classic dark-brown-classic; do
  copy_shot "look-$look"
done
# The lobby in each language (crates/server/assets/i18n/).
for lang in en de fr es; do copy_shot "lobby-$lang-1366x768"; done
echo "copied $n screenshots to docs/screenshots/"
