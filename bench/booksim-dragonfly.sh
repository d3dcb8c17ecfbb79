#!/bin/sh
# booksim-dragonfly.sh - mapsim's dragonfly routings against BookSim2 on
# identical networks and traffic (issue 41; bench/README.md, "Dragonfly
# routings against BookSim2").
#
# BookSim2 (booksim/booksim2, the cycle-accurate simulator of Kim et al.,
# ISCA 2008) with dragonfly-comparison.patch (per-packet Valiant `val`,
# deadlock-free UGAL-L `ugalvc`, `group_shift` and `uniform_deck` traffic;
# bench/README.md says where it comes from and how to build it) is started
# for real: $BOOKSIM, else `booksim` on PATH; without it the BookSim
# column shows "-" and only mapsim runs.
#
# Networks: dragonflynew k = p: 72 nodes (g=9, a=4, p=2, h=2) and 342
# nodes (g=19, a=6, p=3, h=3); in mapsim dragonfly:...:arrangement=absolute
# (BookSim's global cabling). Time unit: 1 cycle = 1 ns, a flit = 1 byte,
# every channel 1 flit/cycle (1e9 bytes/s), latencies local 10, global
# 100, injection and ejection 1 cycle (BookSim's DRAGON_LATENCY), packets
# of 10 flits (mapsim model.packet_size = 10, no header, no envelope,
# router_delay 0). BookSim: batch mode, every node issues B packets (72
# nodes: 994 = 14 x 71, 342 nodes: 682 = 2 x 341) as fast as its injection
# channel takes them; the batch duration is the cycles to the last flit.
# mapsim: one rank per node, identity mapping, communication only, every
# node offers its whole batch at once (nonblocking):
#   uniform  (uniform_deck) node n sends B/(N-1) packets to every other
#            node (gen --pattern random --degree N-1: each once, in a
#            random order; BookSim: a shuffled deck of the other nodes)
#   shift    (group_shift) node n sends B packets to n + a p
# Throughput relative to injection = B packets / (duration / 10 cycles)
# (mapsim: bytes per node / (makespan x 1e9 bytes/s)); each mapsim cell is
# that throughput and its difference from BookSim's.
#
# Routings (mapsim / BookSim): minimal / min, valiant / val, ugal /
# ugalvc, ugal:variant=local / ugalvc, ugal:variant=global / ugalvc
# (BookSim has no UGAL-G; its UGAL-L is the nearest), and BookSim's stock
# `ugal` alone for reference. A mapsim routing the build refuses shows as
# "n/a (routing not available)".
#
# Usage: bench/booksim-dragonfly.sh [BUILD_DIR [SIZES [MODELS]]]
#   defaults: build, "72 342", "flow packet packet-buf".
# BOOKSIM_CACHE=DIR keeps BookSim's outputs (NAME.cfg, NAME.out) there and
# reuses one whose configuration is the same (BookSim's 342-node runs take
# minutes each). BookSim runs niced, one at a time. Plain sh and awk.
set -eu
B=${1:-build}
SIZES=${2:-72 342}
MODELS=${3:-flow packet packet-buf}
M=$(cd "$(dirname "$B/mapsim")" && pwd)/mapsim
W=$(mktemp -d /tmp/mapsim-bench-booksim-XXXXXX)
trap 'rm -rf "$W"' EXIT INT TERM
BK=${BOOKSIM:-$(command -v booksim || true)}
if [ -z "$BK" ] || [ ! -x "$BK" ]; then
  echo "booksim-dragonfly: BookSim2 not found (\$BOOKSIM or booksim on PATH): BookSim cells skipped (-)" >&2
  BK=""
fi
CACHE=${BOOKSIM_CACHE:-$W}
mkdir -p "$CACHE"

# The configuration of bench/README.md: BookSim's shipped dragonflyconfig
# (src/examples/dragonflyconfig) with the comparison's changes.
bk_config() { # k routing traffic batch_size
  cat <<EOF
vc_buf_size = 256;
wait_for_tail_credit = 0;
vc_allocator = separable_input_first;
sw_allocator = separable_input_first;
alloc_iters  = 1;
credit_delay   = 2;
routing_delay  = 0;
vc_alloc_delay = 1;
sw_alloc_delay = 1;
st_final_delay = 1;
input_speedup     = 1;
output_speedup    = 1;
internal_speedup  = 2.0;
priority = none;
packet_size = 10;
topology = dragonflynew;
n  = 1;
watch_out = -;
k  = $1;
num_vcs     = 3;
routing_function = $2;
traffic       = $3;
sim_type = batch;
batch_size = $4;
batch_count = 1;
max_outstanding_requests = 0;
injection_rate = 1.0;
seed = 1;
EOF
}

# BookSim's batch duration in cycles, "-" without BookSim, "failed" when
# it did not report one (a missing patch: unknown routing or traffic).
bk_duration() { # size k routing traffic batch
  [ -n "$BK" ] || { echo -; return; }
  f="$CACHE/$1-$4-$3"
  bk_config "$2" "$3" "$4" "$5" > "$W/want.cfg"
  if ! { [ -s "$f.out" ] && [ -f "$f.cfg" ] && cmp -s "$W/want.cfg" "$f.cfg" &&
         grep -q "Overall min batch duration" "$f.out"; }; then
    cp "$W/want.cfg" "$f.cfg"
    t0=$(date +%s)
    # BookSim exits 255 on success; stock ugal deadlocks on the 342-node
    # group shift, hence the time limit (BOOKSIM_TIMEOUT seconds)
    timeout "${BOOKSIM_TIMEOUT:-1200}" nice "$BK" "$f.cfg" > "$f.out" 2>&1 || true
    echo "booksim-dragonfly: BookSim $1 nodes $4 $3: $(($(date +%s) - t0)) s ($BK $f.cfg)" >&2
  fi
  d=$(grep "Overall min batch duration" "$f.out" | head -1 | awk '{print $6}')
  echo "${d:-failed}"   # failed: no duration (deadlock, time limit, unpatched BookSim)
}

# mapsim's makespan in ns, or "n/a" when the build refuses the routing.
ms_makespan() { # net trace model routing
  set +e
  "$M" simulate -p "dragonfly:$1:arrangement=absolute" --routing "$4" -t "$2" --model "$3" \
    --compute-scale 0 --json -q \
    --set linktype.node.bandwidth=1e9 --set linktype.local.bandwidth=1e9 \
    --set linktype.global.bandwidth=1e9 --set linktype.node.latency=1ns \
    --set linktype.local.latency=10ns --set linktype.global.latency=100ns \
    --set model.packet_size=10 --set model.packet_header=0 --set model.envelope=0 \
    --set model.router_delay=0 > "$W/out.json" 2> "$W/err"
  rc=$?
  set -e
  if [ $rc -eq 2 ] && grep -q "routing" "$W/err"; then echo n/a; return; fi
  [ $rc -eq 0 ] || { echo "mapsim failed ($1 $3 $4): $(cat "$W/err")" >&2; exit 1; }
  grep -q '"pre_post_match" : true' "$W/out.json" || { echo "check failed: $1 $3 $4" >&2; exit 1; }
  grep -o '"makespan_s" : [0-9.e+-]*' "$W/out.json" | head -1 | awk '{printf "%.0f\n", $3 * 1e9}'
}

printf '| network | traffic | routing (mapsim / BookSim) | BookSim |'
for model in $MODELS; do printf ' %s |' "$model"; done
printf '\n|---|---|---|---|'
for model in $MODELS; do printf -- '---|'; done
printf '\n'
for n in $SIZES; do
  case $n in
    72) net=g=9:a=4:p=2:h=2 k=2 batch=994 shift=8 ;;
    342) net=g=19:a=6:p=3:h=3 k=3 batch=682 shift=18 ;;
    *) echo "booksim-dragonfly: sizes are 72 and 342, not $n" >&2; exit 2 ;;
  esac
  per=$((batch / (n - 1)))
  "$M" gen --pattern random --degree $((n - 1)) -n $n -b $((per * 10)) -i 1 --gap 0 \
    --nonblocking -o "$W/uniform-$n" -q > /dev/null
  "$M" gen --pattern shift --shift $shift -n $n -b $((batch * 10)) -i 1 --gap 0 \
    --nonblocking -o "$W/shift-$n" -q > /dev/null
  for traffic in uniform shift; do
    case $traffic in uniform) bt=uniform_deck ;; *) bt=group_shift ;; esac
    for pair in minimal/min valiant/val ugal/ugalvc ugal:variant=local/ugalvc \
                ugal:variant=global/ugalvc -/ugal; do
      mr=${pair%/*} br=${pair#*/}
      bd=$(bk_duration $n $k $br $bt $batch)
      row="$bd"
      for model in $MODELS; do
        if [ "$mr" = - ]; then row="$row -"; else row="$row $(ms_makespan $net "$W/$traffic-$n" $model "$mr")"; fi
      done
      echo "$row" | awk -v net="$n nodes ($net)" -v t="$traffic ($bt)" -v r="$mr / $br" \
                        -v batch=$batch -v nm="$(echo $MODELS | wc -w)" '
        function thr(c) { return batch / (c / 10) }
        { bk = ($1 ~ /^[0-9]+$/) ? thr($1) : -1
          line = sprintf("| %s | %s | %s | %s |", net, t, r,
                         bk >= 0 ? sprintf("%.3f (%d cycles)", bk, $1) : $1)
          for (i = 2; i <= nm + 1; i++) {
            if ($i == "n/a") cell = "n/a (routing not available)"
            else if ($i == "-") cell = "-"
            else {
              v = thr($i)
              cell = bk >= 0 ? sprintf("%.3f (%+.0f%%)", v, (v / bk - 1) * 100) : sprintf("%.3f", v)
            }
            line = line " " cell " |"
          }
          print line }'
    done
  done
done
