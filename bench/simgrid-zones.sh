#!/bin/sh
# simgrid-zones.sh - runs exported to SimGrid's own DRAGONFLY and FAT_TREE
# cluster zones (SimGrid computes the routes) against `mapsim simulate
# --model flow --preset simgrid` (bench/README.md, "Adaptive routing on a
# dragonfly"): the bundled traces, identity and random mappings, simulated
# makespans side by side and their difference.
#
# Platforms: a 4-ary 3-tree (64 nodes, d-mod-k: SimGrid's FatTreeZone), a
# 2-level tree of 8 leaves and 8 spines in SimGrid's notation (64 nodes), and
# two dragonflies with SimGrid's cabling (arrangement simgrid, routed
# minimal: its DragonflyZone): g=4 a=5 p=4 (80 nodes) and g=6 a=6 p=3
# (108 nodes). Each run is `mapsim export simgrid --preset simgrid`
# (platform.xml must hold the zone, else the run is refused here) and the
# export's smpirun.sh (smpirun -replay, CM02, TCP gamma 0, factors 1).
# Every run twice: with the traces' computation (both sides replay the
# same flops) and communication only (--compute-scale 0), where the
# network is all of the makespan.
#
# PRESET=smpi runs both sides as smpirun does without --cfg (SimGrid's
# SMPI network model with its factors, TCP gamma and cross-traffic, SMPI's
# collectives: `--preset smpi` on both), and adds a TORUS zone
# (torus:4x4x4). PLATFORMS, TRACES and MAPS (space-separated) narrow the
# grid.
#
# Usage: [PRESET=simgrid|smpi] bench/simgrid-zones.sh [BUILD_DIR]   (default
# build). Needs smpirun (libsimgrid-dev); skips without it. Plain sh and awk.
set -eu
B=${1:-build}
M=$(cd "$(dirname "$B/mapsim")" && pwd)/mapsim
SRC=$(cd "$(dirname "$0")/.." && pwd)
if ! command -v smpirun >/dev/null 2>&1; then
  echo "simgrid-zones: smpirun missing (apt-get install libsimgrid-dev); skipped"
  exit 0
fi
W=$(mktemp -d /tmp/mapsim-bench-zones-XXXXXX)
trap 'rm -rf "$W"' EXIT INT TERM

PRESET=${PRESET:-simgrid}
case $PRESET in
  simgrid) default_platforms='fattree:k=4:n=3 fattree:2;8,8;1,8;1,1 dragonfly:g=4:a=5:p=4:h=1:arrangement=simgrid dragonfly:g=6:a=6:p=3:h=1:arrangement=simgrid' ;;
  smpi) default_platforms='torus:4x4x4 fattree:k=4:n=3 fattree:2;8,8;1,8;1,1 dragonfly:g=4:a=5:p=4:h=1:arrangement=simgrid dragonfly:g=6:a=6:p=3:h=1:arrangement=simgrid' ;;
  *) echo "simgrid-zones: PRESET=$PRESET, expected simgrid or smpi" >&2; exit 2 ;;
esac
PLATFORMS=${PLATFORMS:-$default_platforms}
TRACES=${TRACES:-stencil3d-64 alltoall-16 ring-8 cg-16}
MAPS=${MAPS:-identity random:1 random:2 random:3}

echo "| platform | zone | trace | mapping | compute | SimGrid (s) | mapsim flow, preset $PRESET (s) | difference |"
echo "|---|---|---|---|---|---|---|---|"
worst=0
for cs in 1 0; do
for plat in $PLATFORMS; do
  for tr in $TRACES; do
    for map in $MAPS; do
      case $map in
        identity) opt="--compute-scale $cs" ;;
        *) opt="--compute-scale $cs -s random --seed ${map#random:}" ;;
      esac
      out=$W/sg
      rm -rf "$out"
      # shellcheck disable=SC2086
      "$M" export simgrid -p "$plat" -t "$SRC/traces/data/$tr" --preset "$PRESET" -q $opt \
        -o "$out" > /dev/null 2> "$W/notes"
      zone=$(grep -o 'topology="[A-Z_]*"' "$out/platform.xml" | head -1 | cut -d'"' -f2)
      [ -n "$zone" ] || { echo "simgrid-zones: $plat exported no cluster zone" >&2; exit 1; }
      sh "$out/smpirun.sh" > "$out/log" 2>&1 || true
      sg=$(sed -n 's/^\[\([0-9.e+-]*\)\] Simulation time.*/\1/p' "$out/log" | tail -1)
      [ -n "$sg" ] || { echo "simgrid-zones: SimGrid failed on $plat $tr:" >&2; cat "$out/log" >&2; exit 1; }
      # shellcheck disable=SC2086
      ms=$("$M" simulate -p "$plat" -t "$SRC/traces/data/$tr" --model flow --preset "$PRESET" \
        --json -q $opt 2> "$W/notes" | grep -o '"makespan_s" : [0-9.e+-]*' | head -1 | awk '{print $3}')
      line=$(echo "$sg $ms" | awk -v p="$plat" -v z="$zone" -v t="$tr" -v m="$map" -v c="$cs" \
        '{ d = 100 * ($2 - $1) / $1
           printf "| %s | %s | %s | %s | %s | %.9g | %.9g | %+.3f%% |\n", p, z, t, m,
                  c == 1 ? "kept" : "none", $1, $2, d }')
      echo "$line"
      worst=$(echo "$sg $ms $worst" | awk '{ d = ($2 - $1) / $1 * 100; d = d < 0 ? -d : d
                                             print (d > $3 ? d : $3) }')
    done
  done
done
done
echo
echo "largest |mapsim - SimGrid| / SimGrid: $worst%"
