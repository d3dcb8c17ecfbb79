#!/usr/bin/env bash
# install.sh - `meson install` puts mapsim on PATH with the data it bundles:
# installed into a scratch folder (--destdir), the installed mapsim, run
# from another folder, prints the demo study with absolute paths into its
# own share/mapsim (`study --show-demo > my.ini` works wherever it is run)
# and that file checks: 108 cells.
set -euo pipefail

BUILD=${MAPSIM_BUILD:?run through meson test}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/mapsim-install-XXXXXX")
trap 'rm -rf "$TMP"' EXIT

meson install -C "$BUILD" --destdir "$TMP/root" --no-rebuild --quiet > "$TMP/install.log" 2>&1 ||
  { cat "$TMP/install.log" >&2; exit 1; }
exe=$(find "$TMP/root" -path '*/bin/mapsim' -type f)
[ -n "$exe" ] || { echo "no bin/mapsim installed under $TMP/root" >&2; exit 1; }
share=$(cd "$(dirname "$exe")/../share/mapsim" && pwd)
for f in traces/data/cg-16/traces.otf2 configs/haec-4x4x4.ini configs/README.md; do
  [ -f "$share/$f" ] || { echo "not installed: share/mapsim/$f" >&2; exit 1; }
done

mkdir "$TMP/elsewhere"
cd "$TMP/elsewhere"
export PATH="$(dirname "$exe"):$PATH"
unset MAPSIM_DATA
[ "$(command -v mapsim)" = "$exe" ] || { echo "mapsim on PATH is $(command -v mapsim)" >&2; exit 1; }
mapsim study --show-demo > my.ini
grep -E '^(traces|platforms) = ' my.ini > paths
[ "$(wc -l < paths)" = 2 ] || { echo "no traces/platforms lines in:" >&2; cat my.ini >&2; exit 1; }
for p in $(sed 's/^[a-z]* = //' paths | tr ';' '\n'); do
  case "$p" in
    "$share"/*) [ -e "$p" ] || { echo "my.ini names $p, which does not exist" >&2; exit 1; } ;;
    *) echo "my.ini names $p, expected a path in $share" >&2; exit 1 ;;
  esac
done
out=$(mapsim study my.ini --check)
case "$out" in
  *"108 cells: 4 inputs (4 traces), 3 platforms, 9 strategies"*) ;;
  *) echo "mapsim study my.ini --check printed: $out" >&2; exit 1 ;;
esac
