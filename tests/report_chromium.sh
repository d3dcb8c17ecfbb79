#!/usr/bin/env bash
# report_chromium.sh - the demo study's report opened in a real browser: headless
# Chromium (Debian's chromium) loads index.html from disk with the network
# off and must decode every embedded figure; a screenshot of the page is
# kept when MAPSIM_SCREENSHOT names a file. In a 1280x900 window the
# summary table must be above the fold (its top and bottom inside the
# first screen) and the page, its sections folded, short.
#
# The report itself has no script: this test loads a copy of the page with
# a few lines appended that count the images the browser decoded. Installs
# chromium when it is missing (as root); exit 77 (meson: skipped) only
# when no browser can be installed or started.
set -euo pipefail

MAPSIM=${MAPSIM:?run through meson test}
SRC=${MAPSIM_SRC:?run through meson test}

skip() {
  echo "SKIP: $*" >&2
  exit 77
}

if ! command -v chromium > /dev/null 2>&1; then
  [ "$(id -u)" = 0 ] || skip "chromium is not installed and this is not root"
  echo "installing chromium (apt-get)"
  log=$(mktemp)
  if ! { apt-get update && DEBIAN_FRONTEND=noninteractive \
      apt-get install -y --no-install-recommends chromium; } > "$log" 2>&1; then
    tail -n 20 "$log" >&2
    rm -f "$log"
    skip "could not install chromium"
  fi
  rm -f "$log"
fi

TMP=$(mktemp -d "${TMPDIR:-/tmp}/mapsim-chromium-XXXXXX")
trap 'rm -rf "$TMP"' EXIT

"$MAPSIM" study --demo -o "$TMP/out" -j 2 --quiet > /dev/null
page="$TMP/out/index.html"
figures=$(grep -o 'src="data:image/png;base64,' "$page" | wc -l)
[ "$figures" -ge 8 ] || { echo "only $figures figures in the page" >&2; exit 1; }

# the copy that reports what the browser decoded
probe="$TMP/out/probe.html"
sed 's|</body>|<script>addEventListener("load", () => { const i = [...document.images]; document.body.dataset.decoded = i.filter(x => x.complete \&\& x.naturalWidth > 0).length; document.body.dataset.images = i.length; const t = document.querySelector("#summary table").getBoundingClientRect(); document.body.dataset.summaryTop = Math.round(t.top); document.body.dataset.summaryBottom = Math.round(t.bottom); document.body.dataset.height = document.documentElement.scrollHeight; });</script></body>|' \
  "$page" > "$probe"

browser() {
  timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$TMP/profile" --hide-scrollbars "$@" 2> "$TMP/chromium.log"
}

if ! browser --window-size=1280,900 --virtual-time-budget=10000 --dump-dom "file://$probe" > "$TMP/dom.html"; then
  tail -n 5 "$TMP/chromium.log" >&2
  skip "chromium did not start"
fi
decoded=$(grep -o 'data-decoded="[0-9]*"' "$TMP/dom.html" | grep -o '[0-9]*' || true)
images=$(grep -o 'data-images="[0-9]*"' "$TMP/dom.html" | grep -o '[0-9]*' || true)
if [ -z "$decoded" ] || [ "$decoded" != "$figures" ] || [ "$images" != "$figures" ]; then
  echo "chromium decoded ${decoded:-no} of ${images:-?} images, the page has $figures" >&2
  exit 1
fi
for section in summary ranking prepost strategies matrices links cells; do
  grep -q "id=\"$section\"" "$TMP/dom.html" || { echo "section $section missing" >&2; exit 1; }
done
attr() { sed -n "s/.*data-$1=\"\(-\{0,1\}[0-9]*\)\".*/\1/p" "$TMP/dom.html" | head -n 1; }
top=$(attr summary-top) bottom=$(attr summary-bottom) height=$(attr height)
if [ -z "$top" ] || [ "$top" -lt 0 ] || [ "$bottom" -gt 900 ]; then
  echo "the summary table spans ${top:-?}..${bottom:-?} px, expected it inside the first 900" >&2
  exit 1
fi
if [ -z "$height" ] || [ "$height" -gt 2500 ]; then
  echo "the folded page is ${height:-?} px tall, expected at most 2500" >&2
  exit 1
fi
if [ -n "${MAPSIM_SCREENSHOT:-}" ]; then
  browser --window-size=1280,900 --screenshot="$MAPSIM_SCREENSHOT" "file://$page" > /dev/null
fi
echo "chromium rendered the report: $figures of $figures figures decoded, every section present," \
  "summary at $top..$bottom px of 900, page $height px"
