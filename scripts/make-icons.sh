#!/usr/bin/env bash
# The web app's icons (crates/server/assets/icons/*.png, committed; the
# manifest names them): drawn from the SVG sources beside them by headless
# Chromium (scripts/setup-browser.sh installs it), so anyone can redraw them
# after changing a source:
#
#   bash scripts/make-icons.sh
#
# favicon.svg (rounded corners, transparent outside) gives the "any"
# icons, 192 and 512 px; icons/maskable.svg (full bleed, the figure inside
# the central 80% that a launcher's mask keeps) the "maskable" ones.
set -euo pipefail
cd "$(dirname "$0")/.."
assets=crates/server/assets
chromium=${CHROMIUM:-$(command -v chromium || command -v chromium-browser)}
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
draw() { # source.svg size out.png
    "$chromium" --headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir="$profile" \
        --default-background-color=00000000 --window-size="$2,$2" --screenshot="$PWD/$3" "file://$PWD/$1" 2>/dev/null
}
draw $assets/favicon.svg 192 $assets/icons/icon-192.png
draw $assets/favicon.svg 512 $assets/icons/icon-512.png
draw $assets/icons/maskable.svg 192 $assets/icons/maskable-192.png
draw $assets/icons/maskable.svg 512 $assets/icons/maskable-512.png
ls -l $assets/icons/*.png
