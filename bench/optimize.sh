#!/bin/sh
# optimize.sh - mappings optimized for the simulated time against the
# static strategies: for every trace, on the paper's 4x4x4 mesh, torus and
# HAEC Box (configs/) with sparse random allocations, communication only
# (compute-scale 0), flow model, one `mapsim study` per trace:
#   - the static strategies (STATIC below), each on its own;
#   - opt = portfolio:obj=makespan over the same strategies (the fastest by
#     replay) + replay:evals=EVALS (the search by replays from there);
# then per case (trace, platform, allocation) the best static strategy's
# makespan against opt's, and the cost: opt's replays and wall time next
# to the static strategies' summed and largest wall time.
#
# Usage (from the repository root, after building):
#   sh bench/optimize.sh [TRACE...]
# Default traces: the bundled ones (traces/data) and the real applications
# of bench/realapps.sh (bench/out/realapps/traces/APP: `sh bench/realapps.sh
# trace melt peptide cavity qe cp2k` writes them; those missing are named
# and skipped).
# Environment: BUILD (build), EVALS (200), SEEDS ("1 2": allocation seeds),
# JOBS (2: cells at once), OUT (bench/out/optimize).
# A trace of more than 32 ranks runs 2 ranks per node on ranks/2 nodes.
# Cells already in OUT are not run again (a study resumes).
set -eu
build=${BUILD:-build}
evals=${EVALS:-200}
seeds=${SEEDS:-1 2}
jobs=${JOBS:-2}
out=${OUT:-bench/out/optimize}
mapsim=$build/mapsim
[ -x "$mapsim" ] || { echo "optimize: build $build first" >&2; exit 2; }
[ -d configs ] || { echo "optimize: run from the repository root" >&2; exit 2; }
here=$(pwd)

STATIC="identity random greedy greedy+wh greedy+wh+mc scotch kl identity+tabu mht hilbert bipartition portfolio"
try=$(echo "$STATIC" | tr ' ' '|')
opt="portfolio:obj=makespan,try=[$try]+replay:evals=$evals"

traces=${*:-}
if [ -z "$traces" ]; then
  traces="traces/data/cg-16 traces/data/alltoall-16 traces/data/ring-8 traces/data/stencil3d-64"
  for a in melt peptide cavity qe cp2k; do
    if [ -d "bench/out/realapps/traces/$a" ]; then
      traces="$traces bench/out/realapps/traces/$a"
    else
      echo "optimize: bench/out/realapps/traces/$a missing (sh bench/realapps.sh trace $a); skipped" >&2
    fi
  done
fi

mkdir -p "$out"
for t in $traces; do
  name=$(basename "$t")
  ranks=$("$mapsim" trace info "$t" | awk '$1 == "ranks" { print $2; exit }')
  cores=1
  nodes=$ranks
  if [ "$ranks" -gt 32 ]; then cores=2; nodes=$(( (ranks + 1) / 2 )); fi
  dir=$out/$name
  mkdir -p "$dir"
  case $t in /*) path=$t ;; *) path=$here/$t ;; esac
  {
    echo "[study]"
    echo "name = $name: static strategies against the makespan-optimized mapping"
    echo "traces = $path"
    echo "models = flow"
    echo "compute-scale = 0"
    echo "strategies = $(echo "$STATIC" | sed 's/ /; /g')"
    for p in mesh torus haec; do
      for s in $seeds; do
        echo "[platform $p-s$s]"
        echo "spec = $here/configs/$p-4x4x4.ini"
        echo "alloc = random:$nodes:$s"
        echo "cores = $cores"
      done
    done
    echo "[strategy opt]"
    echo "pipeline = $opt"
  } > "$dir/study.ini"
  echo "optimize: $name ($ranks ranks on $nodes nodes x $cores): $(date +%T)" >&2
  "$mapsim" study "$dir/study.ini" -o "$dir" -j "$jobs" --quiet --no-report > "$dir/study.log"
done

python3 - "$out" $traces <<'EOF'
import json, os, sys
out, traces = sys.argv[1], sys.argv[2:]
print("| trace | platform, alloc | best static | its makespan (s) | opt makespan (s) | change | "
      "opt replays | opt wall (s) | static wall (s), sum / max |")
print("|---|---|---|---:|---:|---:|---:|---:|---:|")
cases = slower = gains5 = 0
worst = best = None
for t in traces:
    name = os.path.basename(t.rstrip("/"))
    cells = json.load(open(os.path.join(out, name, "results.json")))["cells"]
    for plat in dict.fromkeys(c["platform"] for c in cells):
        rows = [c for c in cells if c["platform"] == plat]
        bad = [c for c in rows if c.get("error")]
        if bad:
            sys.exit("optimize: %s %s %s: %s" % (name, plat, bad[0]["strategy"], bad[0]["error"]))
        static = [c for c in rows if c["strategy"] != "opt"]
        opt = [c for c in rows if c["strategy"] == "opt"][0]
        b = min(c["makespan_s"] for c in static)
        names = "=".join(c["strategy"] for c in static if c["makespan_s"] == b)
        o = opt["makespan_s"]
        ch = 100.0 * (o - b) / b
        cases += 1
        slower += o > b
        gains5 += ch <= -5.0
        worst = ch if worst is None else max(worst, ch)
        best = ch if best is None else min(best, ch)
        walls = [c["map_s"] for c in static]
        print("| %s | %s | %s | %.7g | %.7g | %+.1f%% | %d | %.2f | %.2f / %.2f |" % (
            name, plat, names, b, o, ch, opt["map_replays"], opt["map_s"], sum(walls), max(walls)))
print()
print("%d cases: opt slower than the best static strategy in %d, at least 5%% faster in %d "
      "(%.0f%%); change from %+.1f%% to %+.1f%%" % (cases, slower, gains5,
      100.0 * gains5 / max(cases, 1), worst if worst is not None else 0, best if best is not None else 0))
EOF
