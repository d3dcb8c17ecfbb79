#!/bin/sh
# dragonfly-ugal.sh - the dragonfly textbook result (Kim, Dally, Scott and
# Abts, ISCA 2008, Section 4.3, Fig. 7): on the adversarial group shift
# Valiant and UGAL beat minimal routing, on uniform random traffic minimal
# is best, UGAL close to the better one in both (bench/README.md,
# "Adaptive routing on a dragonfly").
#
# Networks: balanced dragonflies (a = 2p = 2h, Kim et al. Section 3.1),
# g = a h + 1 groups, one global cable per pair of groups, every link
# 200 Gbit/s and 100 ns (the shorthand's defaults): g=19:a=6:p=3:h=3 (342
# nodes) and g=33:a=8:p=4:h=4 (1,056 nodes, the paper's size). One rank
# per node, identity mapping, communication only (--compute-scale 0).
# Traffic, offered at once by every node (offered load 1: each node
# injects at its link's full rate until its bytes are out):
#   shift    rank r sends 1 MiB to r + a p (the next group: group shift)
#   uniform  rank r sends 64 KiB to each of 16 random ranks (1 MiB)
#   balanced rank r sends floor(1 MiB / (N-1)) bytes to every other rank,
#            each once, in a random order (balanced uniform: every node
#            receives as much as it sends, so no receiver is the bottleneck)
# Each cell is the simulated makespan; the throughput is the bytes a node
# sends over makespan x injection bandwidth (1 = the network keeps up).
# The traffics to run: TRAFFICS="shift uniform" (the default); add balanced
# (TRAFFICS="shift uniform balanced"): its 1,056-node packet runs take hours.
# The last column: UGAL against the better of minimal and Valiant.
#
# Usage: bench/dragonfly-ugal.sh [BUILD_DIR [MODELS]]   (defaults: build,
# "flow packet"). Plain sh and awk.
set -eu
B=${1:-build}
MODELS=${2:-flow packet}
TRAFFICS=${TRAFFICS:-shift uniform}
M=$(cd "$(dirname "$B/mapsim")" && pwd)/mapsim
W=$(mktemp -d /tmp/mapsim-bench-ugal-XXXXXX)
trap 'rm -rf "$W"' EXIT INT TERM

makespan() { # platform trace model
  "$M" simulate -p "$1" -t "$2" --model "$3" --compute-scale 0 --json -q > "$W/out.json"
  grep -q '"pre_post_match" : true' "$W/out.json" || { echo "check failed: $1 $3" >&2; exit 1; }
  grep -o '"makespan_s" : [0-9.e+-]*' "$W/out.json" | head -1 | awk '{print $3}'
}

echo "| network | traffic | model | minimal | valiant | ugal | ugal vs the better |"
echo "|---|---|---|---|---|---|---|"
for net in g=19:a=6:p=3:h=3 g=33:a=8:p=4:h=4; do
  set -- $(echo "$net" | tr ':=' '  ')
  g=$2 a=$4 p=$6
  n=$((g * a * p))
  "$M" gen --pattern shift --shift $((a * p)) -n $n -b 1048576 -i 1 --gap 0 --nonblocking \
    -o "$W/shift-$n" -q
  "$M" gen --pattern random --degree 16 -n $n -b 65536 -i 1 --gap 0 --nonblocking \
    -o "$W/uniform-$n" -q
  "$M" gen --pattern random --degree $((n - 1)) -n $n -b $((1048576 / (n - 1))) -i 1 --gap 0 \
    --nonblocking -o "$W/balanced-$n" -q
  for traffic in $TRAFFICS; do
    case $traffic in balanced) bytes=$((1048576 / (n - 1) * (n - 1))) ;; *) bytes=1048576 ;; esac
    for model in $MODELS; do
      row=""
      for routing in minimal valiant ugal; do
        row="$row $(makespan "dragonfly:$net:routing=$routing" "$W/$traffic-$n" "$model")"
      done
      echo "$row" | awk -v net="$n nodes ($net)" -v t="$traffic" -v m="$model" -v bytes=$bytes '
        function cell(s) { return sprintf("%.1f us (%.2f)", s * 1e6, bytes / s / 25e9) }
        { best = $1 < $2 ? $1 : $2
          printf "| %s | %s | %s | %s | %s | %s | %+.1f%% |\n", net, t, m, cell($1), cell($2),
                 cell($3), ($3 / best - 1) * 100 }'
    done
  done
done
