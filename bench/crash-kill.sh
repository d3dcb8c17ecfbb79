#!/bin/bash
# crash-kill.sh - a study SIGKILLed again and again at random moments,
# rerun each time, must end with the results of an uninterrupted run
# (bench/README.md, "Study store: SIGKILL at random moments"). The test
# suite does the same with 5 kills (tests/test_study_store.c); this is the
# long version.
#
# The study: a 32-rank all-to-all (gen, 64 KiB, 3 iterations) on the three
# 4x4x4 platforms, 6 strategies, models flow and packet, 3 seeds: 108
# cells, with the report, in rounds: 5 runs killed, each after a moment
# drawn from awk's srand(SEED) - a fraction of 0.9 times the time an
# uninterrupted run would still need (the report's time plus the share of
# the cells not stored yet, both measured first), so kills land in every
# phase: loading, cells, results, report - then one run to the end; the
# next round starts in an empty folder (as tests/test_study_store.c does
# once). After each kill: a results.csv, when there is one, must be the
# uninterrupted run's (every column but map_s). Every run that finishes
# (the last of a round, or one that ended before its moment) must exit 0
# without a warning, with the uninterrupted results.csv and no temporary
# left in the folder.
#
# Usage: bench/crash-kill.sh [BUILD_DIR [KILLS [SEED]]]   (defaults: build,
# 50, 1; KILLS a multiple of 5). Prints one line per kill and a summary.
set -euo pipefail
B=${1:-build}
KILLS=${2:-50}
SEED=${3:-1}
M=$(cd "$(dirname "$B/mapsim")" && pwd)/mapsim
W=$(mktemp -d "${TMPDIR:-/tmp}/mapsim-crash-XXXXXX")
trap 'rm -rf "$W"' EXIT
cd "$W"
"$M" gen --pattern alltoall --ranks 32 --bytes 65536 --iterations 3 -o a2a32 > /dev/null
cat > s.ini <<'EOF'
[study]
traces = a2a32
platforms = torus:4x4x4; mesh:4x4x4; haec:4x4x4
strategies = identity; random; hilbert; morton; greedy; greedy+wh
models = flow; packet
seeds = 1; 2; 3
EOF
CELLS=108

now_ms() { date +%s%3N; }
# results.csv without map_s
strip() {
  awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "map_s") c = i }
           { out = ""; for (i = 1; i <= NF; i++) if (i != c) out = out $i ","; print out }' "$1"
}
stored() { { cat cut/cells/*.jsonl 2> /dev/null || true; } | wc -l; }

t0=$(now_ms)
"$M" study s.ini -o whole -j 2 -q --no-report > /dev/null
t1=$(now_ms)
"$M" study s.ini -o whole -j 2 -q > /dev/null   # every cell stored: the report alone
t2=$(now_ms)
cells_ms=$((t1 - t0)) report_ms=$((t2 - t1))
strip whole/results.csv > want.csv
echo "uninterrupted: cells ${cells_ms} ms, results and report ${report_ms} ms"

awk -v seed="$SEED" -v n="$KILLS" 'BEGIN { srand(seed); for (i = 0; i < n; i++) print rand() }' \
  > moments
# one run of the study into cut/: its exit status (137: killed) after
# `wait_ms`, or when it finished before
run_until() {
  "$M" study s.ini -o cut -j 2 -q > /dev/null 2> err &
  local pid=$! status=0
  sleep "$(awk -v ms="$1" 'BEGIN { printf "%.3f", ms / 1000 }')"
  kill -KILL "$pid" 2> /dev/null || true
  wait "$pid" 2> /dev/null || status=$?
  return "$status"
}
# a finished run: no warning, the uninterrupted results, no temporary
check_finished() {
  [ ! -s err ] || { echo "$1: the run warned:"; cat err; exit 1; }
  strip cut/results.csv | cmp -s - want.csv ||
    { echo "$1: results.csv differs from the uninterrupted run's"; exit 1; }
  local left
  left=$(find cut -name '.*.tmp-*' | wc -l)
  [ "$left" = 0 ] || { echo "$1: temporaries left:"; find cut -name '.*.tmp-*'; exit 1; }
}
killed=0 finished=0 in_cells=0 after_cells=0 checked=0 i=0
while read -r f; do
  i=$((i + 1))
  before=$(stored)
  left_ms=$((report_ms + cells_ms * (CELLS - before) / CELLS))
  wait_ms=$(awk -v f="$f" -v l="$left_ms" 'BEGIN { printf "%d", 0.9 * f * l }')
  status=0
  run_until "$wait_ms" || status=$?
  after=$(stored)
  if [ "$status" = 137 ]; then
    killed=$((killed + 1))
    if [ "$after" -lt "$CELLS" ]; then in_cells=$((in_cells + 1)); phase=cells
    else after_cells=$((after_cells + 1)); phase="results/report"; fi
  elif [ "$status" = 0 ]; then
    finished=$((finished + 1)); phase="finished first"
    check_finished "kill $i"
  else
    echo "kill $i: exit status $status:"; cat err; exit 1
  fi
  if [ -f cut/results.csv ]; then
    strip cut/results.csv | cmp -s - want.csv ||
      { echo "kill $i: results.csv differs from the uninterrupted run's"; exit 1; }
    checked=$((checked + 1))
  fi
  echo "kill $i after ${wait_ms} ms: ${before} -> ${after} cells stored, $phase"
  if [ $((i % 5)) = 0 ]; then # the end of a round: a run to the end, then an empty folder
    "$M" study s.ini -o cut -j 2 -q > /dev/null 2> err
    check_finished "round $((i / 5))"
    rm -rf cut
  fi
done < moments

echo "$KILLS runs (seed $SEED) in $((KILLS / 5)) rounds of 5: $killed killed ($in_cells while" \
  "cells ran, $after_cells while writing results or the report), $finished finished first;" \
  "every results.csv after a kill ($checked) and of every finished run equal to the" \
  "uninterrupted run's (but map_s), no warning, no temporary left"
