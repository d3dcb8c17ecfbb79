#!/bin/sh
# energy.sh - link energy and timelines (bench/README.md, "Link energy and
# timelines"):
#   simgrid   mapsim's energy_j (flow model, simgrid preset) against SimGrid
#             3.32's link_energy plugin on the same runs exported with
#             `mapsim export simgrid` (smpirun.sh enables the plugin): the
#             bundled traces on configs/haec-4x4x4.ini (HAEC-SIM's wattage)
#             and on torus:4x4x4 with the same optical wattage, identity
#             and three random mappings, communication only, and identity
#             with the traced computation; a 1 MiB ping-pong (one flow
#             at a time). Every wattage is exported x 1e6 (energy is linear
#             in it; the plugin prints joules with 6 decimals) and the
#             joules shown divided back. Next to them the plugin's own
#             accounting redone on mapsim's flows (bench/link-energy-sampled.py:
#             at each start and end of a message on a link, the link's load
#             taken back to the previous one), and a check that energy_j is
#             the exact integral of the timeline's throughput;
#   study     bench/haec-energy.ini: the bundled traces on the HAEC Box,
#             strategies ranked by simulated makespan and by energy_j -
#             does the fastest mapping cost the least energy?
#   timeline  the cost of `simulate --timeline` on a 4,096-rank stencil
#             (16x16x16 torus, flow model), written while the replay runs:
#             plain and with the timeline in turns, 5 times (RUNS=N in the
#             environment: N times; on a busy machine 5 are few), each timeline
#             a new file; the replay's time, the whole command's wall and
#             CPU (user + system) time, and the timeline's extra as a share
#             of the plain replay; the load average before and after;
#   neighbour the plain replay of that stencil alone and beside a neighbour
#             on processor 1 (taskset; build/bench/bench_neighbour: register
#             arithmetic, or memset over 512 KiB, 8 MiB, 64 MiB), in turns,
#             RUNS times (default 10); the median replay time of each - what
#             slows a replay beside it: processing or memory traffic.
# Usage: bench/energy.sh [simgrid|study|timeline|neighbour|all] [BUILD_DIR [WORK_DIR]]
# (defaults: all, build, a temporary directory, removed). The SimGrid part
# needs smpirun (libsimgrid-dev) and skips without it; the study summary
# reads results.csv with python3.
set -eu
WHAT=${1:-all}
B=${2:-build}
W=${3:-}
M=$(cd "$(dirname "$B/mapsim")" && pwd)/mapsim
SRC=$(cd "$(dirname "$0")/.." && pwd)
if [ -z "$W" ]; then
  W=$(mktemp -d)
  trap 'rm -rf "$W"' EXIT
fi
mkdir -p "$W"
# the wattage x 1e6: configs/haec-4x4x4.ini's (optical 2.1 / 24.3 W, wireless 0 /
# 2.124 W), and the same optical one on the torus
SCALE=1e6
HAEC_X="--set linktype.optical.power-idle=2.1e6 --set linktype.optical.power-busy=24.3e6
  --set linktype.wireless.power-idle=0 --set linktype.wireless.power-busy=2.124e6"
TORUS_X="--set linktype.optical.power-idle=2.1e6 --set linktype.optical.power-busy=24.3e6"

# one row: NAME PLATFORM TRACE [mapsim options...]: SimGrid's joules, mapsim's,
# their difference; the plugin's accounting of mapsim's flows and SimGrid's
# difference from it (in total; the link where they differ most)
energy_row() {
  name=$1 plat=$2 tr=$3
  shift 3
  out=$W/sg
  rm -rf "$out"
  # shellcheck disable=SC2086 # options are words
  "$M" export simgrid -p "$plat" -t "$tr" --preset simgrid -q "$@" -o "$out" > /dev/null
  sh "$out/smpirun.sh" > "$out/log" 2>&1 || true
  grep -q 'Total energy over all links' "$out/log" ||
    { echo "energy: SimGrid gave no energy on $name:" >&2; tail "$out/log" >&2; exit 1; }
  "$M" simulate -p "$plat" -t "$tr" --preset simgrid --model flow --json -q "$@" \
    --timeline "$out/timeline.json" --timeline-links all --link-events "$out/events.csv" \
    > "$out/run.json"
  python3 "$SRC/bench/link-energy-sampled.py" "$out/log" "$out/run.json" "$out/timeline.json" \
    "$out/events.csv" "$out/platform.xml" |
    awk -v n="$name" -v k="$SCALE" '{
      e = ($3 - $2) / $2
      if (e > 1e-9 || e < -1e-9)
        printf "energy: %s: energy_j %s is not the integral of the timeline, %s\n", n, $2, $3 > "/dev/stderr"
      printf "%-30s %12.9f %12.9f %+8.3f%% %12.9f %+8.4f%% %s %+.2g\n",
        n, $1 / k, $2 / k, 100 * ($2 - $1) / $1, $4 / k, 100 * ($1 - $4) / $1, $5, $6 / k }'
}

simgrid_part() {
  if ! command -v smpirun >/dev/null 2>&1; then
    echo "energy simgrid: smpirun missing (apt-get install libsimgrid-dev); skipped"
    return
  fi
  printf '%-30s %12s %12s %9s %12s %9s %s\n' run simgrid_j mapsim_j diff sampled_j \
    sg-sampl "worst link (sg - sampled, J)"
  for t in stencil3d-64 alltoall-16 ring-8 cg-16; do
    tr=$SRC/traces/data/$t
    for p in haec torus; do
      if [ $p = haec ]; then set -- "$SRC/configs/haec-4x4x4.ini" $HAEC_X; else set -- torus:4x4x4 $TORUS_X; fi
      plat=$1
      shift
      # shellcheck disable=SC2068 # the platform's --set words
      energy_row "$t-$p-identity" "$plat" "$tr" $@ --compute-scale 0
      for s in 1 2 3; do
        energy_row "$t-$p-random$s" "$plat" "$tr" $@ --compute-scale 0 -s random --seed $s
      done
      energy_row "$t-$p-computing" "$plat" "$tr" $@
    done
  done | tee "$W/energy.txt"
  # one flow at a time: SimGrid's plugin integrates exactly
  [ -d "$W/pingpong" ] || "$M" gen --pattern pingpong --ranks 2 --bytes 1048576 \
    --iterations 10 --gap 0 -q -o "$W/pingpong"
  # shellcheck disable=SC2086
  energy_row pingpong-1MiB-torus torus:4x4x4 "$W/pingpong" $TORUS_X
  awk '{ d = $4; sub(/%/, "", d); d = d < 0 ? -d : d; if (d > m) { m = d; w = $1 }
         s = $6; sub(/%/, "", s); s = s < 0 ? -s : s; if (s > ms) { ms = s; ws = $1 } }
       END { printf "largest |mapsim - SimGrid| / SimGrid: %.3f%% (%s)\n", m, w
             printf "largest |sampled - SimGrid| / SimGrid: %.4f%% (%s)\n", ms, ws }' "$W/energy.txt"
}

study_part() {
  "$M" study "$SRC/bench/haec-energy.ini" -o "$W/haec-energy" -j 2 -q --fresh > /dev/null
  python3 - "$W/haec-energy/results.csv" <<'EOF'
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if not r["error"]]
def rank(cells, key, r):  # equal values (a relative 1e-9) share a rank
    v = float(r[key])
    return 1 + sum(float(c[key]) < v * (1 - 1e-9) for c in cells)
for inp in dict.fromkeys(r["input"] for r in rows):
    cells = [r for r in rows if r["input"] == inp]
    print(f"\n{inp} on {cells[0]['platform']} ({len(cells)} strategies)")
    print(f"{'strategy':24} {'makespan_s':>14} {'t-rank':>6} {'energy_j':>12} {'e-rank':>6}"
          f" {'traffic_j':>12} {'pre_traffic_j':>13}")
    for r in sorted(cells, key=lambda r: (rank(cells, "makespan_s", r), rank(cells, "energy_j", r))):
        print(f"{r['strategy']:24} {float(r['makespan_s']):14.9g} {rank(cells, 'makespan_s', r):6d}"
              f" {float(r['energy_j']):12.6g} {rank(cells, 'energy_j', r):6d}"
              f" {float(r['energy_traffic_j']):12.6g} {float(r['pre_traffic_energy_j']):13.6g}")
    fast = [r["strategy"] for r in cells if rank(cells, "makespan_s", r) == 1]
    cheap = [r["strategy"] for r in cells if rank(cells, "energy_j", r) == 1]
    both = [s for s in fast if s in cheap]
    print(f"fastest: {' = '.join(fast)}; least energy: {' = '.join(cheap)} -> "
          + (f"the fastest costs the least ({' = '.join(both)})" if both else "they differ"))
EOF
}

# OUT CMD...: runs CMD with its output in OUT; prints its wall and CPU (user +
# system) seconds
timed() {
  python3 - "$@" <<'EOF'
import resource, subprocess, sys, time
start = time.monotonic()
with open(sys.argv[1], "w") as out:
    subprocess.run(sys.argv[2:], stdout=out, check=True)
used = resource.getrusage(resource.RUSAGE_CHILDREN)
print(f"{time.monotonic() - start:.3f} {used.ru_utime + used.ru_stime:.3f}")
EOF
}

# the 4,096-rank stencil both timing parts replay
stencil() {
  t=$W/stencil4096
  [ -d "$t" ] || "$M" gen --pattern stencil3d --ranks 4096 --dims 16x16x16 --periodic \
    --nonblocking --iterations 10 --bytes 65536 -q -o "$t"
}

timeline_part() {
  stencil
  echo "before: $(uptime)"
  printf '%-10s %10s %10s %10s\n' run replay_s wall_s cpu_s
  for i in $(seq "${RUNS:-5}"); do
    for mode in plain timeline; do
      set -- simulate -p torus:16x16x16 -t "$t" --model flow -q
      [ $mode = timeline ] && set -- "$@" --timeline "$W/tl.json"
      rm -f "$W/tl.json" # a new file: replacing the last run's would time its deletion too
      tc=$(timed "$W/out.txt" "$M" "$@")
      r=$(sed -n 's/^events .* in \([0-9.]*\) s .*/\1/p' "$W/out.txt")
      echo "$mode $r $tc" | awk '{ printf "%-10s %10.3f %10.3f %10.3f\n", $1, $2, $3, $4 }'
    done
  done | tee "$W/timeline.txt"
  echo "after: $(uptime)"
  ls -l "$W/tl.json" | awk '{ printf "timeline file: %.0f MB\n", $5 / 1e6 }'
  awk '{ n[$1]++; r[$1] += $2; w[$1] += $3; c[$1] += $4 }
       END { p = n["plain"]; q = n["timeline"]
             printf "means: replay %.3f s plain, %.3f s with the timeline; wall %.3f s, %.3f s; cpu %.3f s, %.3f s\n",
               r["plain"] / p, r["timeline"] / q, w["plain"] / p, w["timeline"] / q, c["plain"] / p, c["timeline"] / q
             printf "the timeline costs %+.1f%% of the plain replay (the command'"'"'s extra wall time), %+.1f%% (the replay'"'"'s extra time), %+.1f%% of the plain command'"'"'s cpu\n",
               100 * (w["timeline"] / q - w["plain"] / p) / (r["plain"] / p),
               100 * (r["timeline"] / q - r["plain"] / p) / (r["plain"] / p),
               100 * (c["timeline"] / q - c["plain"] / p) / (c["plain"] / p) }' "$W/timeline.txt"
}

neighbour_part() {
  stencil
  N=$(dirname "$M")/bench/bench_neighbour
  [ -x "$N" ] || { echo "energy neighbour: $N missing (meson compile -C $B)" >&2; exit 1; }
  echo "before: $(uptime)"
  for i in $(seq "${RUNS:-10}"); do
    for who in alone alu 524288 8388608 67108864; do
      case $who in
        alone) pid= ;;
        alu) taskset -c 1 "$N" alu 20 & pid=$! ;;
        *) taskset -c 1 "$N" stream "$who" 20 & pid=$! ;;
      esac
      [ -z "$pid" ] || sleep 0.2 # the neighbour running before the replay starts
      "$M" simulate -p torus:16x16x16 -t "$t" --model flow -q > "$W/out.txt"
      [ -z "$pid" ] || { kill "$pid"; wait "$pid" 2>/dev/null || true; }
      echo "$who $(sed -n 's/^events .* in \([0-9.]*\) s .*/\1/p' "$W/out.txt")"
    done
  done > "$W/neighbour.txt"
  echo "after: $(uptime)"
  python3 - "$W/neighbour.txt" <<'EOF'
import statistics, sys
runs = {}
for line in open(sys.argv[1]):
    who, replay = line.split()
    runs.setdefault(who, []).append(float(replay))
names = {"alone": "alone", "alu": "beside register arithmetic", "524288": "beside memset 512 KiB",
         "8388608": "beside memset 8 MiB", "67108864": "beside memset 64 MiB"}
base = statistics.median(runs["alone"])
for who, times in runs.items():
    m = statistics.median(times)
    print(f"{names[who]:28} replay median {m:.3f} s ({100 * (m - base) / base:+.1f}%), "
          f"min {min(times):.3f} s, {len(times)} runs")
EOF
}

case $WHAT in
  simgrid) simgrid_part ;;
  study) study_part ;;
  timeline) timeline_part ;;
  neighbour) neighbour_part ;;
  all) simgrid_part; study_part; timeline_part; neighbour_part ;;
  *) echo "usage: bench/energy.sh [simgrid|study|timeline|neighbour|all] [BUILD_DIR [WORK_DIR]]" >&2; exit 2 ;;
esac
