#!/bin/sh
# simgrid-ti-replay.sh - SimGrid's own time-independent example traces
# (tests/data/simgrid-ti, from SimGrid's examples/smpi/replay) replayed by
# SMPI (`smpirun -replay`) and by mapsim reading them (`-t FILE`, the
# simgrid-ti reader) with `--preset ${PRESET:-simgrid}`, on the same platform: the
# torus mapsim writes for SimGrid (`mapsim export simgrid`: hosts of
# 1e12 flop/s, so one flop is the picosecond mapsim reads a flop as).
# Prints per trace both simulated times and mapsim's relative difference.
# SMPI runs its own collective algorithms, mapsim its schedules
# (traces/collectives.h): the point-to-point traces compare the network
# model, the collective ones the algorithms too.
#
# Usage: bench/simgrid-ti-replay.sh [BUILD_DIR [PLATFORM]]
#   defaults: build, torus:2x2. Needs libsimgrid-dev; skips without it.
set -eu
B=${1:-build}
P=${2:-torus:2x2}
M=$B/mapsim
D=$(cd "$(dirname "$0")/.." && pwd)/tests/data/simgrid-ti
if ! command -v smpirun >/dev/null 2>&1; then
  echo "simgrid-ti-replay: smpirun missing (apt-get install libsimgrid-dev); skipped"
  exit 0
fi
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
printf '%-38s %14s %14s %9s\n' trace smpirun_s mapsim_s diff_%
for t in split_traces actions_with_isend.txt actions_waitall.txt actions_barrier.txt \
         actions_bcast.txt actions_allreduce.txt actions_alltoall.txt actions_alltoallv.txt \
         actions_allgatherv.txt actions_gather.txt actions_reducescatter.txt; do
  o=$W/$t
  "$M" export simgrid -q -p "$P" --preset ${PRESET:-simgrid} -t "$D/$t" -o "$o" > /dev/null 2>&1
  # SMPI replays SimGrid's file itself: a list naming it (one line: every
  # rank's actions) or, for split_traces, its files
  if [ "$t" = split_traces ]; then
    sed "s|^|$D/|" "$D/$t" > "$o/traces.txt"
  else
    echo "$D/$t" > "$o/traces.txt"
  fi
  sg=$(sh "$o/smpirun.sh" 2>/dev/null | sed -n 's/^\[\([0-9.e+-]*\)\] Simulation time.*/\1/p' | tail -1)
  ms=$("$M" simulate -q -p "$P" --preset ${PRESET:-simgrid} --model ${MODEL:-analytic} ${COLLS:+--collectives $COLLS} -t "$D/$t" --json | grep -m1 '"makespan_s"' |
       tr -d ' ,' | cut -d: -f2)
  d=$(awk -v a="$ms" -v b="${sg:-0}" 'BEGIN { if (b > 0) printf "%.3f", (a - b) / b * 100; else print "?" }')
  printf '%-38s %14s %14s %9s\n' "$t" "${sg:-?}" "$ms" "$d"
done
