#!/bin/sh
# simgrid-bridge.sh - mapsim's flow model against SimGrid 3.32's offline
# replay (smpirun -replay) on the same workloads, mappings and platform:
# simulated times side by side (bench/README.md, "SimGrid bridge").
#
# Each run is written for SimGrid by `mapsim export simgrid` (platform,
# hostfile, time-independent trace, smpirun.sh with CM02, TCP gamma 0,
# bandwidth and latency factors 1, no cross traffic) and replayed by
# `mapsim simulate --model flow` with the same options. Communication only
# (--compute-scale 0). Columns: SimGrid's makespan, mapsim's with the
# simgrid preset (and its difference), mapsim's with its own defaults
# (RTS/CTS, fair sharing, eager data at the send, tie +).
#
# Workloads, on torus:4x4x4 (31.25 GB/s, 10 ps links):
#   pingpong  8 B .. 4 MiB, 10 round trips, ranks 1 hop and 6 hops apart
#   stencil   64-rank periodic 3D stencil, Irecv/Isend/Waitall, 64 KiB,
#             5 iterations, identity and 8 random mappings
#   alltoall  32 ranks (on all 64 nodes an all-to-all is the same under
#             every mapping), pairwise Irecv/Isend/Waitall, 4 KiB, 2
#             iterations, identity and 8 random mappings
#   ring      64 ranks, 1 MiB, Sendrecv, 5 iterations, identity and 8
#             random mappings
#   bundled   traces/data/* on torus:4x4x4 and configs/haec-4x4x4.ini
# Then, per workload with mappings, Spearman's rho between the two
# rankings of the 9 mappings.
#
# Usage: bench/simgrid-bridge.sh [BUILD_DIR [WORK_DIR]]   (defaults: build,
# a temporary directory, removed). Needs smpirun (libsimgrid-dev); skips
# without it. Plain sh and awk.
set -eu
B=${1:-build}
W=${2:-}
M=$(cd "$(dirname "$B/mapsim")" && pwd)/mapsim
SRC=$(cd "$(dirname "$0")/.." && pwd)
if ! command -v smpirun >/dev/null 2>&1; then
  echo "simgrid-bridge: smpirun missing (apt-get install libsimgrid-dev); skipped"
  exit 0
fi
if [ -z "$W" ]; then
  W=$(mktemp -d)
  trap 'rm -rf "$W"' EXIT
fi
mkdir -p "$W"
RES=$W/results.txt
: > "$RES"
P=torus:4x4x4

# one row: NAME PLATFORM TRACE [mapsim options...]
run() {
  name=$1 plat=$2 tr=$3
  shift 3
  out=$W/sg
  rm -rf "$out"
  "$M" export simgrid -p "$plat" -t "$tr" --preset simgrid --compute-scale 0 -q "$@" \
    -o "$out" > /dev/null
  sh "$out/smpirun.sh" > "$out/log" 2>&1 || true
  sg=$(sed -n 's/^\[\([0-9.e+-]*\)\] Simulation time.*/\1/p' "$out/log" | tail -1)
  [ -n "$sg" ] || { echo "simgrid-bridge: SimGrid failed on $name:" >&2; cat "$out/log" >&2; exit 1; }
  ms() {
    "$M" simulate -p "$plat" -t "$tr" --compute-scale 0 --model flow --json -q "$@" |
      sed -n 's/^  "makespan_s" : \([0-9.e+-]*\),*$/\1/p' | head -1
  }
  pre=$(ms --preset simgrid "$@")
  def=$(ms "$@")
  echo "$name $sg $pre $def" | tee -a "$RES" |
    awk '{ printf "%-28s %14.9e %14.9e %+8.3f%% %14.9e %+8.2f%%\n", $1, $2, $3,
           100 * ($3 - $2) / $2, $4, 100 * ($4 - $2) / $2 }'
}

printf '%-28s %14s %14s %9s %14s %9s\n' run simgrid_s mapsim_simgrid diff mapsim_default diff

# ping-pong: rank 1 on node 1 (1 hop) or node 42 = (2,2,2) (6 hops)
printf '0 0\n1 1\n' > "$W/hop1.map"
printf '0 0\n1 42\n' > "$W/hop6.map"
for b in 8 64 512 4096 32768 65535 65536 262144 1048576 4194304; do
  t=$W/pp$b
  [ -d "$t" ] || "$M" gen --pattern pingpong --ranks 2 --bytes "$b" --iterations 10 --gap 0 -q -o "$t"
  for h in 1 6; do
    run "pingpong-${b}B-${h}hop" $P "$t" -M "$W/hop$h.map"
  done
done

# the stencil, all-to-all and ring under identity and 8 random mappings
[ -d "$W/stencil" ] || "$M" gen -q -o "$W/stencil" --pattern stencil3d --ranks 64 --dims 4x4x4 \
  --periodic --nonblocking --bytes 65536 --iterations 5 --gap 0
[ -d "$W/alltoall" ] || "$M" gen -q -o "$W/alltoall" --pattern alltoall --ranks 32 --nonblocking \
  --bytes 4096 --iterations 2 --gap 0
[ -d "$W/ring" ] || "$M" gen -q -o "$W/ring" --pattern ring --ranks 64 --bytes 1048576 \
  --iterations 5 --gap 0
for w in stencil alltoall ring; do
  run "$w-identity" $P "$W/$w"
  for s in 1 2 3 4 5 6 7 8; do
    run "$w-random$s" $P "$W/$w" -s random --seed "$s"
  done
done

# the bundled traces, identity, on the torus and the HAEC Box
for t in stencil3d-64 alltoall-16 ring-8 cg-16; do
  run "$t-torus" $P "$SRC/traces/data/$t"
  run "$t-haec" "$SRC/configs/haec-4x4x4.ini" "$SRC/traces/data/$t"
done

# summary: largest differences per class, Spearman's rho of the 9 mappings
awk '
function abs(x) { return x < 0 ? -x : x }
function rankof(v, n, r,    i, j, c, s) {
  for (i = 1; i <= n; i++) {
    c = 0; s = 0
    for (j = 1; j <= n; j++) { if (v[j] < v[i]) c++; if (v[j] == v[i]) s++ }
    r[i] = c + (s + 1) / 2
  }
}
{
  d = 100 * abs($3 - $2) / $2
  split($1, p, "-")
  if ($1 ~ /^pingpong/) { if (d > pp) pp = d }
  else if ($1 ~ /identity|torus|haec/) { if (d > id) id = d }
  else { if (d > rnd) rnd = d }
  if ($1 ~ /identity|random/) {
    n[p[1]]++; sg[p[1], n[p[1]]] = $2; ms[p[1], n[p[1]]] = $3; df[p[1], n[p[1]]] = $4
  }
}
END {
  printf "\nlargest |mapsim - SimGrid| / SimGrid: ping-pong %.3f%%, identity and bundled %.3f%%, random mappings %.3f%%\n", pp, id, rnd
  for (w in n)
    printf "Spearman rho of the %d mappings, %s: preset simgrid %.4f, mapsim defaults %.4f\n",
           n[w], w, rho(w, 1), rho(w, 0)
}
function rho(w, preset,    i, ma, mb, sab, saa, sbb) {
  for (i = 1; i <= n[w]; i++) { a[i] = sg[w, i]; b[i] = preset ? ms[w, i] : df[w, i] }
  rankof(a, n[w], ra); rankof(b, n[w], rb)
  ma = mb = 0
  for (i = 1; i <= n[w]; i++) { ma += ra[i]; mb += rb[i] }
  ma /= n[w]; mb /= n[w]; sab = saa = sbb = 0
  for (i = 1; i <= n[w]; i++) { sab += (ra[i] - ma) * (rb[i] - mb); saa += (ra[i] - ma)^2; sbb += (rb[i] - mb)^2 }
  return (saa && sbb) ? sab / sqrt(saa * sbb) : 1
}' "$RES"
