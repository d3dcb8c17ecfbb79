#!/bin/sh
# dragonfly-speed.sh - what adaptive routing costs on a machine-sized
# dragonfly (bench/README.md, "Adaptive routing on a dragonfly"): a
# 4,096-rank trace replayed on configs/frontier-like.ini (9,472 nodes,
# 2,368 switches, Slingshot-like) routed minimal and ugal, and on a 3D
# torus of similar size (21x21x21 = 9,261 nodes), in the flow and packet
# models: wall time, CPU time (user + system: less disturbed than the wall
# time when other work shares the cores), peak resident memory (GNU time's
# maximum RSS) and the simulated makespan, one process at a time.
#
# The trace: `gen --pattern stencil3d` on a 16x16x16 periodic grid, 64 KiB
# halos, 10 iterations, Irecv/Isend/Waitall, 0.1 ms of computation before
# each (2,048,000 records); identity mapping (ranks on nodes 0-4095: 32 of
# the 74 groups, or the first 4,096 nodes of the torus).
#
# Usage: bench/dragonfly-speed.sh [BUILD_DIR]   (default build). Needs GNU
# time (/usr/bin/time, Debian package time). Plain sh and awk.
set -eu
B=${1:-build}
M=$(cd "$(dirname "$B/mapsim")" && pwd)/mapsim
SRC=$(cd "$(dirname "$0")/.." && pwd)
W=$(mktemp -d /tmp/mapsim-bench-speed-XXXXXX)
trap 'rm -rf "$W"' EXIT INT TERM
"$M" gen --pattern stencil3d -n 4096 --dims 16x16x16 --periodic -b 65536 -i 10 --nonblocking \
  --gap 1e-4 -o "$W/stencil" -q

# the value of column $1 of the CSV row in $W/out.csv
col() {
  awk -F, -v k="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == k) c = i } NR == 2 { print $c }' \
    "$W/out.csv"
}

echo "| platform | routing | model | wall (s) | CPU (s) | peak RSS (MiB) | makespan (s) | check |"
echo "|---|---|---|---|---|---|---|---|"
for run in "$SRC/configs/frontier-like.ini minimal" "$SRC/configs/frontier-like.ini ugal" \
           "torus:21x21x21 dor"; do
  set -- $run
  for model in flow packet; do
    /usr/bin/time -f "%e %M %U %S" -o "$W/time" "$M" simulate -p "$1" --set routing.algorithm="$2" \
      -t "$W/stencil" --model "$model" --csv -q > "$W/out.csv" 2> "$W/err" ||
      { cat "$W/err" >&2; exit 1; }
    ms=$(col makespan_s)
    ok=$([ "$(col pre_post_match)" = true ] && echo pass || echo FAIL)
    check=$([ "$2" = ugal ] && echo routes-taken || echo pre=post)
    awk -v p="$(basename "$1")" -v r="$2" -v m="$model" -v ms="$ms" -v c="$check $ok" \
      '{printf "| %s | %s | %s | %.1f | %.1f | %.0f | %s | %s |\n", p, r, m, $1, $3 + $4, $2 / 1024, ms,
              c}' \
      "$W/time"
  done
done
