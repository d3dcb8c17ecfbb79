#!/usr/bin/env bash
# readme_blocks.sh - the README's output blocks are what the program prints.
#
#   tests/readme_blocks.sh check  [README]   every block against a fresh run
#   tests/readme_blocks.sh update [README]   rewrite the blocks that differ
#
# An output block is a fenced block right after a comment naming the shell
# command that prints it, run from the repository's folder:
#
#   <!-- output: sh demo.sh | between '^== 1' '^$' -->
#   ```
#   ...what the command prints on stdout...
#   ```
#
# `<!-- output (needs PROG): ... -->` is checked only where PROG is on PATH
# (SimGrid's smpirun); elsewhere it is skipped, saying so. Commands run one
# after the other in a scratch folder that holds links to the repository's
# configs/, traces/, tests/ and demo.sh, build/mapsim, and mapsim on PATH
# (as after `meson install`), so a block may use what an earlier one wrote.
# Two helpers cut long outputs:
#   between FROM TO   the lines from the first matching regex FROM to the
#                     line before the next one matching TO (trailing empty
#                     lines dropped; TO '^$' is the next empty line)
#   excerpt H T       the first H lines, a line "...", the last T lines
# Compared with masks on both sides, for what differs between runs and
# machines: wall-clock times (a strategy's, the replay's, a portfolio
# candidate's, a search's replays), the thread count,
# the scratch folder. `update` keeps a block whose masked text is unchanged,
# so rerunning it does not churn timings.
#
# Environment: MAPSIM (the binary; default build/mapsim), MAPSIM_SRC (the
# repository; default this script's parent folder). Exit status: 0 all
# blocks match (or were updated), 1 a block differs or its command failed.
set -euo pipefail

mode=${1:-check}
case "$mode" in
  check|update) ;;
  *) echo "usage: $0 check|update [README.md]" >&2; exit 2 ;;
esac
SRC=${MAPSIM_SRC:-$(cd "$(dirname "$0")/.." && pwd)}
MAPSIM=${MAPSIM:-$SRC/build/mapsim}
README=${2:-$SRC/README.md}
[ -x "$MAPSIM" ] || { echo "$MAPSIM: not built (meson compile -C build)" >&2; exit 2; }
MAPSIM=$(cd "$(dirname "$MAPSIM")" && pwd)/$(basename "$MAPSIM")

TMP=$(mktemp -d "${TMPDIR:-/tmp}/mapsim-readme-XXXXXX")
trap 'rm -rf "$TMP"' EXIT
WORK=$TMP/work
mkdir -p "$WORK/build" "$TMP/bin"
for f in configs traces tests demo.sh; do
  ln -s "$SRC/$f" "$WORK/$f"
done
ln -s "$MAPSIM" "$WORK/build/mapsim"
ln -s "$MAPSIM" "$TMP/bin/mapsim"

between() {
  # reads to the end: a writer cut short by a closed pipe would fail the block
  awk -v from="$1" -v to="$2" '
    done { next }
    !on && $0 ~ from { on = 1; print; next }
    on && $0 ~ to { done = 1; next }
    on { print }' | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}'
}
excerpt() {
  awk -v h="$1" -v t="$2" '
    { line[NR] = $0 }
    END {
      for (i = 1; i <= h && i <= NR; i++) print line[i]
      if (NR > h + t) print "..."
      for (i = (NR - t + 1 > h ? NR - t + 1 : h + 1); i <= NR; i++) print line[i]
    }'
}
export -f between excerpt

mask() {
  sed -E -e "s|$WORK/?|./|g" -e "s|$SRC/?|./|g" \
    -e 's/ on [0-9]+ threads?/ on N threads/g' \
    -e 's/(\(seed [0-9]+\)): [0-9.]+ s/\1: T s/' \
    -e 's|in [0-9.]+ s \([0-9.e+-]+ events/s\)|in T s (R events/s)|' \
    -e 's/ replays in [0-9.]+ s/ replays in T s/' \
    -e 's/((hop_bytes|max_link_bytes) [0-9]+), [0-9.]+ s$/\1, T s/' "$1"
}

# Runs block $1's command into $TMP/actual; FALSE when it failed.
run_block() {
  (cd "$WORK" && PATH="$TMP/bin:$PATH" bash -o pipefail -c "$1") \
    < /dev/null > "$TMP/actual" 2> "$TMP/stderr"
}

new=$TMP/readme.new
: > "$new"
state=text
n=0 differ=0 failed=0 skipped=0 lineno=0
cmd="" needs=""
while IFS= read -r line || [ -n "$line" ]; do
  lineno=$((lineno + 1))
  case $state in
    text)
      printf '%s\n' "$line" >> "$new"
      if [[ $line =~ ^'<!-- output'(' (needs '([^\)]+)')')?': '(.*)' -->'$ ]]; then
        needs=${BASH_REMATCH[2]}
        cmd=${BASH_REMATCH[3]}
        state=fence
      fi ;;
    fence)
      printf '%s\n' "$line" >> "$new"
      [[ $line == '```'* ]] ||
        { echo "$README:$lineno: expected a fenced block after the output comment" >&2; exit 1; }
      : > "$TMP/expected"
      start=$lineno
      state=block ;;
    block)
      if [[ $line != '```' ]]; then
        printf '%s\n' "$line" >> "$TMP/expected"
        continue
      fi
      n=$((n + 1))
      if [ -n "$needs" ] && ! command -v "$needs" > /dev/null; then
        echo "$README:$start: skipped: needs $needs ($cmd)"
        skipped=$((skipped + 1))
        cat "$TMP/expected" >> "$new"
      elif ! run_block "$cmd"; then
        echo "$README:$start: the command failed: $cmd" >&2
        cat "$TMP/stderr" >&2
        failed=$((failed + 1))
        cat "$TMP/expected" >> "$new"
      elif ! diff -u --label "README.md:$start" --label "$cmd" \
             <(mask "$TMP/expected") <(mask "$TMP/actual") > "$TMP/diff"; then
        differ=$((differ + 1))
        if [ "$mode" = update ]; then
          echo "$README:$start: updated ($cmd)"
          sed -e '$a\' "$TMP/actual" >> "$new"
        else
          cat "$TMP/diff" >&2
          cat "$TMP/expected" >> "$new"
        fi
      else
        cat "$TMP/expected" >> "$new"
      fi
      printf '%s\n' "$line" >> "$new"
      state=text ;;
  esac
done < "$README"
[ "$state" = text ] || { echo "$README: unterminated output block" >&2; exit 1; }
[ "$n" -gt 0 ] || { echo "$README: no output blocks" >&2; exit 1; }

if [ "$mode" = update ]; then
  cmp -s "$new" "$README" || cat "$new" > "$README"
  echo "$n output blocks, $differ updated, $skipped skipped, $failed failed"
  [ "$failed" = 0 ]
  exit
fi
if [ "$differ" -gt 0 ] || [ "$failed" -gt 0 ]; then
  echo "$((differ + failed)) of $n README output blocks differ from what the program prints" \
       "or failed; regenerate them with: tests/readme_blocks.sh update" >&2
  exit 1
fi
echo "$n output blocks match ($skipped skipped)"
