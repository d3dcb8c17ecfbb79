#!/bin/sh
# simgrid-compare.sh - mapsim vs SimGrid's offline replay (smpirun -replay)
# on the same workload, one core each (taskset -c 0), same run.
#
# The workload (issue 12): a periodic 3D stencil, non-blocking
# Irecv/Isend/Waitall, 64 KiB messages, 1,179,648 messages in all
# (6 per rank and iteration), on the torus of the same shape (31.25 GB/s,
# 10 ps links; SimGrid: CM02 max-min sharing without TCP factors, the
# analytic/flow view of mapsim). mapsim writes the trace (`mapsim gen`),
# `mapsim export simgrid` converts it to SimGrid's time-independent format
# with a torus cluster (tie rule simgrid, in both tools; gaps under 1 us
# carried into the next compute), both replay it; the script prints CPU
# time (user+sys), wall time, peak RSS, the makespans and the CPU-time
# ratios.
#
# Usage: bench/simgrid-compare.sh [BUILD_DIR [WORK_DIR [RANKS...]]]
#   defaults: build, a temporary directory (removed), 64 512 4096
#   ITERS_SCALE=10 multiplies the iterations (the 10x longer trace).
# Needs libsimgrid-dev (smpirun, smpireplaymain); skips without it.
set -eu
B=${1:-build}
W=${2:-}
shift $(( $# > 2 ? 2 : $# ))
RANKS=${*:-64 512 4096}
SCALE=${ITERS_SCALE:-1}
if ! command -v smpirun >/dev/null 2>&1; then
  echo "simgrid-compare: smpirun missing (apt-get install libsimgrid-dev); skipped"
  exit 0
fi
if [ -z "$W" ]; then
  W=$(mktemp -d)
  trap 'rm -rf "$W"' EXIT
fi
M=$B/mapsim
T() { /usr/bin/time -o "$W/time.txt" -f "%U %S %e %M" "$@"; }

printf '%-6s %-9s %10s %9s %9s %12s %s\n' ranks tool cpu_s wall_s rss_MB makespan_s ratio
for n in $RANKS; do
  case $n in
    64) d=4x4x4 ;; 512) d=8x8x8 ;; 4096) d=16x16x16 ;; 32768) d=32x32x32 ;;
    *) echo "simgrid-compare: $n ranks: no cube"; exit 2 ;;
  esac
  it=$(( 1179648 / (6 * n) * SCALE ))
  tr=$W/st$n-$it
  [ -d "$tr" ] || nice "$M" gen --pattern stencil3d --ranks "$n" --dims "$d" --periodic \
    --nonblocking -i "$it" -b 65536 -o "$tr" -q
  ti=$W/ti$n-$it
  [ -d "$ti" ] || nice "$M" export simgrid -p "torus:$d" --tie simgrid -t "$tr" \
    --min-compute 1e-6 -q -o "$ti" > /dev/null
  T taskset -c 0 sh "$ti/smpirun.sh" > "$W/sg.out" 2>&1
  sg=$(tail -1 "$W/time.txt")
  sgmake=$(sed -n 's/^\[\([0-9.e+-]*\)\] Simulation time.*/\1/p' "$W/sg.out" | tail -1)
  set -- $sg
  sgcpu=$(echo "$1 + $2" | bc -l)
  printf '%-6s %-9s %10.2f %9.2f %9.1f %12s %s\n' "$n" simgrid "$sgcpu" "$3" "$(echo "$4/1024" | bc -l)" "${sgmake:-?}" 1
  for model in analytic flow; do
    T taskset -c 0 "$M" simulate -p "torus:$d" --tie simgrid -t "$tr" --model "$model" --json -q \
      > "$W/m.json"
    r=$(tail -1 "$W/time.txt")
    mk=$(grep -m1 '"makespan_s"' "$W/m.json" | tr -d ' ,' | cut -d: -f2)
    set -- $r
    cpu=$(echo "$1 + $2" | bc -l)
    printf '%-6s %-9s %10.2f %9.2f %9.1f %12s %.1fx\n' "$n" "$model" "$cpu" "$3" \
      "$(echo "$4/1024" | bc -l)" "$mk" "$(echo "$sgcpu / $cpu" | bc -l)"
  done
done
