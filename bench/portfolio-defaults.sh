#!/bin/sh
# portfolio-defaults.sh - the portfolio's default candidates against the
# strategies a user would try on their own (issue 34, "Defaults that
# win"), with one `mapsim study` per part:
#   makespan  portfolio:obj=makespan with its default list against
#             identity, greedy+wh, scotch and tabu on the paper's 4x4x4
#             mesh, torus and HAEC Box (configs/) with a sparse random
#             allocation (random:N:1; a trace of more than 32 ranks 2 per
#             node), communication only, flow model: the bundled cg-16,
#             alltoall-16 and stencil3d-64, and the real traces of
#             bench/realapps.sh where they were written
#             (bench/out/realapps/traces/melt ...: `sh bench/realapps.sh
#             trace melt`; missing ones are named and skipped);
#   energy    portfolio:obj=energy with its default list against
#             greedy+wh:obj=energy on the HAEC Box (the platform with
#             power keys), the four bundled traces, the same allocation:
#             the static traffic energy both minimize and the simulated
#             energy_j.
# With BASE=path/to/an/older/mapsim the same studies run with it too, and
# the tables show its portfolio next to this one's.
#
# Usage (from the repository root, after building):
#   sh bench/portfolio-defaults.sh [makespan|energy|all]
# Environment: BUILD (build), BASE (none), JOBS (2), OUT
# (bench/out/portfolio-defaults). Cells already in OUT are not run again.
set -eu
what=${1:-all}
build=${BUILD:-build}
jobs=${JOBS:-2}
out=${OUT:-bench/out/portfolio-defaults}
mapsim=$(cd "$(dirname "$build/mapsim")" && pwd)/mapsim
[ -x "$mapsim" ] || { echo "portfolio-defaults: build $build first" >&2; exit 2; }
[ -d configs ] || { echo "portfolio-defaults: run from the repository root" >&2; exit 2; }
here=$(pwd)
base=${BASE:-}

traces="traces/data/cg-16 traces/data/alltoall-16 traces/data/stencil3d-64"
for a in melt; do
  if [ -d "bench/out/realapps/traces/$a" ]; then
    traces="$traces bench/out/realapps/traces/$a"
  else
    echo "portfolio-defaults: bench/out/realapps/traces/$a missing (sh bench/realapps.sh trace $a); skipped" >&2
  fi
done

# study FILE TRACE PLATFORMS STRATEGIES: a study of TRACE on the configs
# PLATFORMS (mesh torus haec) with the strategies (;-separated)
study() {
  file=$1 t=$2 plats=$3 strategies=$4
  ranks=$("$mapsim" trace info "$t" | awk '$1 == "ranks" { print $2; exit }')
  cores=1
  nodes=$ranks
  if [ "$ranks" -gt 32 ]; then cores=2; nodes=$(( (ranks + 1) / 2 )); fi
  case $t in /*) path=$t ;; *) path=$here/$t ;; esac
  {
    echo "[study]"
    echo "name = $(basename "$t"): the portfolio's defaults"
    echo "traces = $path"
    echo "models = flow"
    echo "compute-scale = 0"
    echo "strategies = $strategies"
    for p in $plats; do
      echo "[platform $p]"
      echo "spec = $here/configs/$p-4x4x4.ini"
      echo "alloc = random:$nodes:1"
      echo "cores = $cores"
    done
  } > "$file"
}

# run PART BINARY LABEL STRATEGIES PLATFORMS TRACES...
run() {
  part=$1 bin=$2 label=$3 strategies=$4 plats=$5
  shift 5
  for t in "$@"; do
    dir=$out/$part-$label/$(basename "$t")
    mkdir -p "$dir"
    study "$dir/study.ini" "$t" "$plats" "$strategies"
    echo "portfolio-defaults: $part, $label, $(basename "$t"): $(date +%T)" >&2
    "$bin" study "$dir/study.ini" -o "$dir" -j "$jobs" --quiet --no-report > "$dir/study.log"
  done
}

makespan() {
  run makespan "$mapsim" new "identity; greedy+wh; scotch; tabu; portfolio:obj=makespan" \
    "mesh torus haec" $traces
  [ -z "$base" ] || run makespan "$base" base "portfolio:obj=makespan" "mesh torus haec" $traces
  python3 - "$out" "$base" $traces <<'EOF'
import json, os, sys
out, base, traces = sys.argv[1], sys.argv[2], sys.argv[3:]
def cells(label, name):
    return json.load(open(os.path.join(out, "makespan-" + label, name, "results.json")))["cells"]
print("| trace | platform | best single strategy | its makespan (s) | portfolio:obj=makespan (s) | change |"
      + (" before (s) | before's change |" if base else ""))
print("|---|---|---|---:|---:|---:|" + ("---:|---:|" if base else ""))
n = slower = slower_before = 0
for t in traces:
    name = os.path.basename(t.rstrip("/"))
    new = cells("new", name)
    old = cells("base", name) if base else []
    for plat in dict.fromkeys(c["platform"] for c in new):
        rows = [c for c in new if c["platform"] == plat]
        bad = [c for c in rows if c.get("error")]
        if bad:
            sys.exit("portfolio-defaults: %s %s %s: %s" % (name, plat, bad[0]["strategy"], bad[0]["error"]))
        single = [c for c in rows if not c["strategy"].startswith("portfolio")]
        p = [c for c in rows if c["strategy"].startswith("portfolio")][0]["makespan_s"]
        b = min(c["makespan_s"] for c in single)
        names = "=".join(c["strategy"] for c in single if c["makespan_s"] == b)
        n += 1
        slower += p > b
        line = "| %s | %s | %s | %.7g | %.7g | %+.2f%% |" % (name, plat, names, b, p, 100 * (p - b) / b)
        if base:
            o = [c for c in old if c["platform"] == plat][0]["makespan_s"]
            slower_before += o > b
            line += " %.7g | %+.2f%% |" % (o, 100 * (o - b) / b)
        print(line)
print()
print("%d cases: the portfolio slower than the best single strategy in %d%s" % (
    n, slower, ", before in %d" % slower_before if base else ""))
EOF
}

energy() {
  run energy "$mapsim" new "greedy+wh:obj=energy; portfolio:obj=energy" haec \
    traces/data/cg-16 traces/data/alltoall-16 traces/data/stencil3d-64 traces/data/ring-8
  [ -z "$base" ] || run energy "$base" base "portfolio:obj=energy" haec \
    traces/data/cg-16 traces/data/alltoall-16 traces/data/stencil3d-64 traces/data/ring-8
  python3 - "$out" "$base" cg-16 alltoall-16 stencil3d-64 ring-8 <<'EOF'
import json, os, sys
out, base, names = sys.argv[1], sys.argv[2], sys.argv[3:]
def cells(label, name):
    return json.load(open(os.path.join(out, "energy-" + label, name, "results.json")))["cells"]
print("| trace | greedy+wh:obj=energy traffic / simulated (J) | portfolio:obj=energy traffic / simulated (J) |"
      + (" before: traffic / simulated (J) |" if base else ""))
print("|---|---:|---:|" + ("---:|" if base else ""))
for name in names:
    rows = {c["strategy"]: c for c in cells("new", name)}
    g, p = rows["greedy+wh:obj=energy"], rows["portfolio:obj=energy"]
    line = "| %s | %.6g / %.6g | %.6g / %.6g |" % (name, g["energy_traffic_j"], g["energy_j"],
                                                 p["energy_traffic_j"], p["energy_j"])
    if base:
        o = cells("base", name)[0]
        line += " %.6g / %.6g |" % (o["energy_traffic_j"], o["energy_j"])
    print(line)
EOF
}

case $what in
  makespan) makespan ;;
  energy) energy ;;
  all) makespan; echo; energy ;;
  *) echo "usage: sh bench/portfolio-defaults.sh [makespan|energy|all]" >&2; exit 2 ;;
esac
