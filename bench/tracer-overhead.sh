#!/bin/sh
# tracer-overhead.sh - libmapsim-trace's cost on OSU-style loops: runs
# bench_osu (2 ranks, then 1 rank) without and with the tracer preloaded,
# alternately, ROUNDS times each in this one invocation, and prints the
# medians side by side (latency and self loops in us, bandwidth in MB/s),
# the traced/plain ratio, and what the tracer adds per message or iteration
# in us (bandwidth: bytes/traced - bytes/plain, the sender's time per
# message; the others: traced - plain). The load average is printed first:
# the two-rank loops are wall-clock times of busy-polling ranks.
# Usage (from the repository root): sh bench/tracer-overhead.sh [BUILD] [ROUNDS]
set -eu
build=${1:-build}
rounds=${2:-5}
bench=$build/bench/bench_osu
lib=$(cd "$build/traces/tracer" && pwd)/libmapsim-trace.so
[ -x "$bench" ] && [ -f "$lib" ] || { echo "tracer-overhead: build $build first (needs MPI)" >&2; exit 2; }
root=""
[ "$(id -u)" = 0 ] && root="--allow-run-as-root"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMPI_MCA_btl_vader_single_copy_mechanism=none
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq "$rounds"); do
  for np in 2 1; do
    mpirun $root -np $np "$bench" >> "$work/plain.$r"
    MAPSIM_TRACE_DIR="$work/trace.$r.$np" mpirun $root -np $np -x LD_PRELOAD="$lib" \
      -x MAPSIM_TRACE_DIR "$bench" >> "$work/traced.$r" 2>> "$work/err.$r"
    rm -rf "$work/trace.$r.$np"
  done
done
echo "load average after:  $(cut -d' ' -f1-3 /proc/loadavg)"
# median of column 3 per (kind, size) over the rounds
median() {
  cat "$work"/"$1".[0-9]* | awk '{print $1, $2, $3}' | sort -k1,1 -k2,2n -k3,3g |
    awk '{k = $1 " " $2; v[k, ++n[k]] = $3; order[k] = 1}
         END {for (k in order) {m = n[k]; print k, (m % 2) ? v[k, (m + 1) / 2] : (v[k, m / 2] + v[k, m / 2 + 1]) / 2}}' |
    sort -k1,1 -k2,2n
}
median plain > "$work/p"
median traced > "$work/t"
printf "%-10s %8s %12s %12s %8s %10s\n" kind bytes plain traced ratio "added us"
paste "$work/p" "$work/t" |
  awk '$1 != $4 || $2 != $5 {print "tracer-overhead: runs disagree on " $0 > "/dev/stderr"; exit 3}
       {add = $1 == "bandwidth" ? $2 / $6 - $2 / $3 : $6 - $3
        printf "%-10s %8d %12.3f %12.3f %8.3f %10.3f\n", $1, $2, $3, $6, $6 / $3, add}'
