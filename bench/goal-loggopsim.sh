#!/bin/sh
# goal-loggopsim.sh - mapsim's LogGOPS replay vs LogGOPSim on Schedgen's
# GOAL schedules, same run, one core each (taskset -c 0 when present).
#
# For each pattern and rank count, Schedgen writes the schedule; LogGOPSim
# needs txt2bin first (GOAL text -> its binary), mapsim reads the text
# itself (`simulate --model loggops`, defaults of both: L 2500, o 1500,
# g 1000, G 6, O 0, S 65535). The script prints both makespans, their
# relative difference, and CPU seconds (user+sys): txt2bin, LogGOPSim,
# their sum, and mapsim (reading included).
#
# LogGOPSim (github.com/spcl/LogGOPSim) built from its source, with
# std::stable_sort in place of its two std::sort calls on the ready
# operations (tests/data/goal/README.md says why):
#   SCHEDGEN, TXT2BIN, LOGGOPSIM  the three programs (default: on PATH)
# Usage: bench/goal-loggopsim.sh [BUILD_DIR [WORK_DIR [RANKS...]]]
#   defaults: build, a temporary directory (removed), 64 512 4096
set -eu
B=${1:-build}
W=${2:-}
shift $(( $# > 2 ? 2 : $# ))
RANKS=${*:-64 512 4096}
SCHEDGEN=${SCHEDGEN:-schedgen}
TXT2BIN=${TXT2BIN:-txt2bin}
LOGGOPSIM=${LOGGOPSIM:-LogGOPSim}
for p in "$SCHEDGEN" "$TXT2BIN" "$LOGGOPSIM"; do
  if ! command -v "$p" >/dev/null 2>&1; then
    echo "goal-loggopsim: $p missing (set SCHEDGEN, TXT2BIN, LOGGOPSIM); skipped"
    exit 0
  fi
done
if [ -z "$W" ]; then
  W=$(mktemp -d)
  trap 'rm -rf "$W"' EXIT
fi
M=$B/mapsim
PIN=
command -v taskset >/dev/null 2>&1 && PIN="taskset -c 0"
cpu() { /usr/bin/time -o "$W/time.txt" -f "%U %S" $PIN "$@" > "$W/out.txt"; awk '{ printf "%.2f", $1 + $2 }' "$W/time.txt"; }

printf '%-18s %5s %9s %14s %14s %9s %8s %8s %8s %8s %6s\n' pattern ranks ops loggopsim mapsim rel_diff \
  txt2bin_s lgs_s lgs_sum mapsim_s ratio
for n in $RANKS; do
  for pat in binomialtreebcast dissemination allreduce_recdoub linear_alltoall; do
    # linear_alltoall has n^2 messages: up to 512 ranks
    [ "$pat" = linear_alltoall ] && [ "$n" -gt 512 ] && continue
    f=$W/$pat-$n.goal
    "$SCHEDGEN" -p "$pat" -s "$n" -d 1024 -o "$f" > /dev/null
    t1=$(cpu "$TXT2BIN" -i "$f" -o "$f.bin")
    t2=$(cpu "$LOGGOPSIM" -f "$f.bin" -b)
    theirs=$(sed -n 's/^Maximum finishing time at host [0-9]*: \([0-9]*\) .*/\1/p' "$W/out.txt")
    t3=$(cpu "$M" simulate --model loggops -t "$f" --csv)
    row=$(tail -1 "$W/out.txt")
    ours=$(echo "$row" | cut -d, -f6)
    ops=$(echo "$row" | cut -d, -f4)
    awk -v p="$pat" -v n="$n" -v ops="$ops" -v a="$theirs" -v b="$ours" -v t1="$t1" -v t2="$t2" -v t3="$t3" 'BEGIN {
      d = (a > 0) ? (b - a) / a : 1; if (d < 0) d = -d
      s = t1 + t2
      printf "%-18s %5d %9d %14s %14s %9.1e %8.2f %8.2f %8.2f %8.2f %6.1f\n", p, n, ops, a, b, d, t1, t2, s, t3, (t3 > 0 ? s / t3 : 0) }'
    rm -f "$f" "$f.bin"
  done
done
