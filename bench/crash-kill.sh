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
# MODE jobs: a study of mixes (two 32-rank all-to-alls by two allocation
# policies on a torus and a dragonfly, models flow and packet: 8 mixes,
# rerun whole each time, no cell store) killed the same way, 5 kills a
# round: after each kill jobs.csv and results.csv, when there, equal the
# uninterrupted run's (but map_s), the JSON results parse, and the
# manifest lists only files the study writes; each finished run also has
# its report newer than its results and no file outside the manifest.
#
# MODE simulate: `simulate --timeline T --link-events E` (a 64-rank
# all-to-all on a torus, flow model) killed at random moments (up to 1.2
# times a run), the runs alternating between two mappings (identity,
# random) whose timelines and link events differ: after each kill T and E
# are both absent (before any run ended) or both the whole files of one
# and the same run - never one new and one old, never cut (the group
# commit of util/output.h); a finished run leaves no temporary.
#
# Usage: bench/crash-kill.sh [BUILD_DIR [KILLS [SEED [MODE]]]]   (defaults:
# build, 50, 1, study; MODE study, jobs, simulate or all; KILLS a multiple
# of 5). Prints one line per kill and a summary per mode.
set -euo pipefail
B=${1:-build}
KILLS=${2:-50}
SEED=${3:-1}
MODE=${4:-study}
M=$(cd "$(dirname "$B/mapsim")" && pwd)/mapsim
W=$(mktemp -d "${TMPDIR:-/tmp}/mapsim-crash-XXXXXX")
trap 'rm -rf "$W"' EXIT
cd "$W"
"$M" gen --pattern alltoall --ranks 32 --bytes 65536 --iterations 3 -o a2a32 > /dev/null

now_ms() { date +%s%3N; }
# a CSV without its map_s column (a wall-clock time)
strip() {
  awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "map_s") c = i }
           { out = ""; for (i = 1; i <= NF; i++) if (i != c) out = out $i ","; print out }' "$1"
}
# KILLS moments in [0, 1) drawn from SEED
moments() {
  awk -v seed="$SEED" -v n="$KILLS" 'BEGIN { srand(seed); for (i = 0; i < n; i++) print rand() }'
}
ms_to_s() { awk -v ms="$1" 'BEGIN { printf "%.3f", ms / 1000 }'; }
no_temporaries() {
  local left
  left=$(find "$2" -name '.*.tmp-*' | wc -l)
  [ "$left" = 0 ] || { echo "$1: temporaries left:"; find "$2" -name '.*.tmp-*'; exit 1; }
}

study_mode() {
cat > s.ini <<'EOF'
[study]
traces = a2a32
platforms = torus:4x4x4; mesh:4x4x4; haec:4x4x4
strategies = identity; random; hilbert; morton; greedy; greedy+wh
models = flow; packet
seeds = 1; 2; 3
EOF
CELLS=108

stored() { { cat cut/cells/*.jsonl 2> /dev/null || true; } | wc -l; }

t0=$(now_ms)
"$M" study s.ini -o whole -j 2 -q --no-report > /dev/null
t1=$(now_ms)
"$M" study s.ini -o whole -j 2 -q > /dev/null   # every cell stored: the report alone
t2=$(now_ms)
cells_ms=$((t1 - t0)) report_ms=$((t2 - t1))
strip whole/results.csv > want.csv
echo "uninterrupted: cells ${cells_ms} ms, results and report ${report_ms} ms"

moments > moments
# one run of the study into cut/: its exit status (137: killed) after
# `wait_ms`, or when it finished before
run_until() {
  "$M" study s.ini -o cut -j 2 -q > /dev/null 2> err &
  local pid=$! status=0
  sleep "$(ms_to_s "$1")"
  kill -KILL "$pid" 2> /dev/null || true
  wait "$pid" 2> /dev/null || status=$?
  return "$status"
}
# a finished run: no warning, the uninterrupted results, no temporary
check_finished() {
  [ ! -s err ] || { echo "$1: the run warned:"; cat err; exit 1; }
  strip cut/results.csv | cmp -s - want.csv ||
    { echo "$1: results.csv differs from the uninterrupted run's"; exit 1; }
  no_temporaries "$1" cut
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
}

jobs_mode() {
cat > jobs.ini <<'EOF'
[jobs]
name = two all-to-alls
[job a]
trace = a2a32
alloc = random:32:1
[job b]
trace = a2a32
alloc = random:32:2
EOF
cat > j.ini <<'EOF'
[study]
name = jobs under two policies
jobs = jobs.ini
policies = random; contiguous
platforms = torus:4x4x4; dragonfly:g=9:a=4:p=2:h=2
models = flow; packet
EOF
local t0 t1 run_ms
t0=$(now_ms)
"$M" study j.ini -o jwhole -j 2 -q > /dev/null
t1=$(now_ms)
run_ms=$((t1 - t0))
strip jwhole/jobs.csv > jwant.csv
strip jwhole/results.csv > rwant.csv
echo "jobs study uninterrupted: ${run_ms} ms"
moments > jmoments
local killed=0 finished=0 i=0 f wait_ms status pid
while read -r f; do
  i=$((i + 1))
  wait_ms=$(awk -v f="$f" -v l="$run_ms" 'BEGIN { printf "%d", 1.1 * f * l }')
  "$M" study j.ini -o jcut -j 2 -q > /dev/null 2> err &
  pid=$!
  sleep "$(ms_to_s "$wait_ms")"
  kill -KILL "$pid" 2> /dev/null || true
  status=0
  wait "$pid" 2> /dev/null || status=$?
  if [ "$status" = 137 ]; then
    killed=$((killed + 1))
    check_jobs_folder "kill $i"
  elif [ "$status" = 0 ]; then
    finished=$((finished + 1))
    check_jobs_finished "kill $i"
  else
    echo "kill $i: exit status $status:"; cat err; exit 1
  fi
  echo "jobs kill $i after ${wait_ms} ms: status $status"
  if [ $((i % 5)) = 0 ]; then
    "$M" study j.ini -o jcut -j 2 -q > /dev/null 2> err
    check_jobs_finished "jobs round $((i / 5))"
    rm -rf jcut
  fi
done < jmoments
echo "jobs: $KILLS runs (seed $SEED) in $((KILLS / 5)) rounds of 5: $killed killed, $finished" \
  "finished first; after every kill and run jobs.csv and results.csv whole and equal to the" \
  "uninterrupted run's (but map_s), the JSON whole, the manifest true; every finished run" \
  "with its report newer than its results, nothing unlisted, no temporary left"
}

# The jobs study's folder after a kill or a run: whole results equal to
# the uninterrupted run's, whole JSON, a manifest listing only files the
# study writes.
check_jobs_folder() {
  local f want
  for f in jobs results; do
    want=rwant.csv
    [ "$f" = jobs ] && want=jwant.csv
    if [ -f "jcut/$f.csv" ]; then
      strip "jcut/$f.csv" | cmp -s - "$want" ||
        { echo "$1: jcut/$f.csv differs from the uninterrupted run's"; exit 1; }
    fi
    if [ -f "jcut/$f.json" ]; then
      python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "jcut/$f.json" ||
        { echo "$1: jcut/$f.json is not whole JSON"; exit 1; }
    fi
  done
  if [ -f jcut/manifest.txt ]; then
    grep -v '^#' jcut/manifest.txt | while read -r f; do
      [ -f "jwhole/$f" ] || { echo "$1: the manifest lists $f, which the study does not write"; exit 1; }
    done
  fi
}

# A finished run: no warning, results and a report newer than them, every
# file listed in the manifest and every listed file there, no temporary.
check_jobs_finished() {
  [ ! -s err ] || { echo "$1: the run warned:"; cat err; exit 1; }
  check_jobs_folder "$1"
  [ -f jcut/jobs.csv ] && [ -f jcut/index.html ] || { echo "$1: results or report missing"; exit 1; }
  [ ! jcut/index.html -ot jcut/jobs.csv ] || { echo "$1: index.html older than jobs.csv"; exit 1; }
  (cd jcut && grep -v '^#' manifest.txt | sort) > listed
  (cd jcut && find . -type f ! -path './cells/*' ! -name manifest.txt ! -name study.lock |
     sed 's|^\./||' | sort) > present
  cmp -s listed present || { echo "$1: the manifest and the folder differ:"; diff listed present; exit 1; }
  no_temporaries "$1" jcut
}

simulate_mode() {
"$M" gen --pattern alltoall --ranks 64 --bytes 65536 --iterations 4 -o a2a64 > /dev/null
local strategies=(identity random) v w t0 t1 run_ms=0
for v in 0 1; do
  t0=$(now_ms)
  "$M" simulate -p torus:4x4x4 -t a2a64 --model flow -s "${strategies[$v]}" \
    --timeline "want-t$v.json" --link-events "want-e$v.csv" -q > /dev/null
  t1=$(now_ms)
  run_ms=$((t1 - t0))
done
! cmp -s want-t0.json want-t1.json || { echo "the two variants' timelines do not differ"; exit 1; }
! cmp -s want-e0.csv want-e1.csv || { echo "the two variants' link events do not differ"; exit 1; }
echo "simulate uninterrupted: ${run_ms} ms"
moments > smoments
mkdir -p sim
local killed=0 finished=0 news=0 i=0 f wait_ms status pair pid prev=none
while read -r f; do
  i=$((i + 1))
  v=$((i % 2))
  wait_ms=$(awk -v f="$f" -v l="$run_ms" 'BEGIN { printf "%d", 1.2 * f * l }')
  "$M" simulate -p torus:4x4x4 -t a2a64 --model flow -s "${strategies[$v]}" \
    --timeline sim/t.json --link-events sim/e.csv -q > /dev/null 2> err &
  pid=$!
  sleep "$(ms_to_s "$wait_ms")"
  kill -KILL "$pid" 2> /dev/null || true
  status=0
  wait "$pid" 2> /dev/null || status=$?
  pair=none
  for w in 0 1; do
    if [ -f sim/t.json ] && cmp -s sim/t.json "want-t$w.json"; then pair="t$w"; fi
  done
  if [ -f sim/t.json ] || [ -f sim/e.csv ]; then
    case $pair in
      t0|t1) cmp -s sim/e.csv "want-e${pair#t}.csv" ||
               { echo "kill $i: the link events are not those of the timeline's run ($pair)"; exit 1; } ;;
      *) echo "kill $i: a timeline of neither run, or link events without one"; exit 1 ;;
    esac
  fi
  if [ "$status" = 137 ]; then
    killed=$((killed + 1))
    if [ "$pair" = "t$v" ] && [ "$prev" != "t$v" ]; then news=$((news + 1)); fi
  elif [ "$status" = 0 ]; then
    finished=$((finished + 1))
    [ "$pair" = "t$v" ] || { echo "kill $i: finished but its outputs are not its own"; exit 1; }
    [ ! -s err ] || { echo "kill $i: the run warned:"; cat err; exit 1; }
    no_temporaries "kill $i" sim
  else
    echo "kill $i: exit status $status:"; cat err; exit 1
  fi
  echo "simulate kill $i (${strategies[$v]}) after ${wait_ms} ms: status $status, outputs $pair"
  prev=$pair
done < smoments
"$M" simulate -p torus:4x4x4 -t a2a64 --model flow --timeline sim/t.json --link-events sim/e.csv \
  -q > /dev/null
no_temporaries "simulate, the last run" sim
echo "simulate: $KILLS runs (seed $SEED): $killed killed ($news of them after their own outputs" \
  "replaced the other run's), $finished finished first; after every kill the timeline and the" \
  "link events both absent or both whole and of the same run, never mixed; no temporary after" \
  "a finished run"
}

case $MODE in
  study) study_mode ;;
  jobs) jobs_mode ;;
  simulate) simulate_mode ;;
  all) study_mode; jobs_mode; simulate_mode ;;
  *) echo "crash-kill.sh: MODE is study, jobs, simulate or all, not $MODE" >&2; exit 2 ;;
esac
