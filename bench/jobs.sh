#!/bin/sh
# jobs.sh - several jobs on one network and where a scheduler puts them
# (bench/README.md, "Several jobs on one network"):
#   bully      Yang et al., SC16: an all-to-all job (the bully) next to a
#              stencil job, both contiguous and both random (3 seeds), on a
#              torus (torus:8x8x4) and a dragonfly (dragonfly:g=9:a=8:p=4:h=2),
#              flow model: each job's makespan, alone and slowdown;
#   mix        four 1,024-rank jobs on torus:16x16x16 (4,096 nodes), four
#              policies: the mix, each job alone and each pair (11 replays),
#              wall time and peak memory (/usr/bin/time);
#   placement  one job of 128 ranks on a 544-node dragonfly
#              (dragonfly:g=17:a=8:p=4:h=2), a stencil and an all-to-all,
#              placed contiguous, random nodes, random routers and random
#              groups (3 seeds each), minimal, Valiant and UGAL routing,
#              flow model, communication only: a study of 72 cells (Jain et
#              al., SC14; Prisacari et al., HPDC14).
# Usage: bench/jobs.sh [bully|mix|placement|all] [BUILD_DIR [WORK_DIR]]
# (defaults: all, build, a temporary directory, removed). Traces are made
# with `mapsim gen`; summaries read CSV with awk.
set -eu
WHAT=${1:-all}
B=${2:-build}
W=${3:-}
M=$(cd "$(dirname "$B/mapsim")" && pwd)/mapsim
if [ -z "$W" ]; then
  W=$(mktemp -d)
  trap 'rm -rf "$W"' EXIT
fi
mkdir -p "$W"
cd "$W"

gen() { # NAME gen-options...
  name=$1
  shift
  [ -d "$name" ] || "$M" gen -q "$@" -o "$name"
}

# per job of a --csv run: job, allocation, makespan, alone, slowdown, shared bytes
summary() {
  awk -F, -v net="$1" 'NR > 1 { printf "| %s | %s | %s | %.1f | %.1f | %.3f | %s |\n", net, $5,
    $6, $11 * 1e6, $12 * 1e6, $13, $15 }'
}

bully() {
  gen a2a128 --pattern alltoall --ranks 128 --bytes 32768 --iterations 2 --gap 0 --nonblocking
  gen st128 --pattern stencil3d --ranks 128 --dims 8x4x4 --periodic --bytes 32768 \
    --iterations 20 --gap 2e-5 --nonblocking
  echo "| network | job | allocation | makespan (us) | alone (us) | slowdown | shared link bytes |"
  echo "|---|---|---|---|---|---|---|"
  for net in torus:8x8x4 dragonfly:g=9:a=8:p=4:h=2; do
    for seed in 1 2 3; do
      cat > bully-$seed.ini <<EOF
[jobs]
name = the bully next to a stencil
[job bully]
trace = a2a128
alloc = random:128:$seed
[job stencil]
trace = st128
alloc = random:128:$((seed + 100))
EOF
    done
    "$M" simulate -q -p "$net" --jobs bully-1.ini --policy contiguous --csv | summary "$net"
    for seed in 1 2 3; do
      "$M" simulate -q -p "$net" --jobs bully-$seed.ini --csv | summary "$net"
    done
  done
}

mix() {
  gen st1024 --pattern stencil3d --ranks 1024 --dims 16x8x8 --periodic --bytes 65536 \
    --iterations 10 --gap 1e-5 --nonblocking
  gen cg1024 --pattern cg --ranks 1024 --bytes 65536 --iterations 10 --gap 1e-5
  gen rnd1024 --pattern random --degree 8 --ranks 1024 --bytes 65536 --iterations 10 \
    --gap 1e-5 --nonblocking
  gen sh1024 --pattern shift --shift 256 --ranks 1024 --bytes 262144 --iterations 10 --gap 1e-5
  cat > mix4.ini <<EOF
[jobs]
name = four 1,024-rank jobs on 4,096 nodes
[job stencil]
trace = st1024
alloc = contiguous:1024:1
[job cg]
trace = cg1024
alloc = random:1024:2
[job random]
trace = rnd1024
alloc = striped:1024:3
[job shift]
trace = sh1024
alloc = best-fit:1024:4
EOF
  for j in 1 2; do
    /usr/bin/time -f "the mix, threads $j: %e s wall, %U s user, %S s system, %M KiB peak" \
      "$M" simulate -q -p torus:16x16x16 --jobs mix4.ini -j $j > mix4-$j.txt
  done
  cat mix4-1.txt
  cmp mix4-1.txt mix4-2.txt && echo "same output on 1 and 2 threads"
  # the reference: one of the jobs alone through the one-job pipeline
  /usr/bin/time -f "the stencil alone (simulate -t): %e s wall, %U s user, %S s system, %M KiB peak" \
    "$M" simulate -q -p torus:16x16x16 -t st1024 --alloc contiguous:1024 --model flow > /dev/null
}

placement() {
  gen a2a128 --pattern alltoall --ranks 128 --bytes 32768 --iterations 2 --gap 0 --nonblocking
  gen st128 --pattern stencil3d --ranks 128 --dims 8x4x4 --periodic --bytes 32768 \
    --iterations 20 --gap 2e-5 --nonblocking
  cat > placement.ini <<EOF
[study]
name = one job placed on a dragonfly
traces = st128; a2a128
platforms = df
strategies = identity
models = flow
compute-scale = 0
[platform df]
spec = dragonfly:g=17:a=8:p=4:h=2
alloc = {contiguous,random,random-routers,random-groups}:128:{1,2,3}
set = routing.algorithm={minimal,valiant,ugal}
EOF
  /usr/bin/time -f "%e s wall, %M KiB peak" "$M" study placement.ini -o placement -q > /dev/null
  # makespan in us (column makespan_s) per input, routing and policy, seeds 1 2 3
  awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "makespan_s") c = i; next }
    { split($3, a, "alloc="); split(a[2], b, ":"); split($3, r, "routing.algorithm=")
      k = $1 " | " r[2] " | " b[1]; v[k] = v[k] sprintf(" %.0f", $c * 1e6) }
    END { for (k in v) print "| " k " |" v[k] " |" }' placement/results.csv | sort
}

case $WHAT in
bully) bully ;;
mix) mix ;;
placement) placement ;;
all) bully; mix; placement ;;
*) echo "usage: bench/jobs.sh [bully|mix|placement|all] [BUILD_DIR [WORK_DIR]]" >&2; exit 2 ;;
esac
