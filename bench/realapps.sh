#!/bin/sh
# realapps.sh - real MPI applications from Debian through mapsim, 8 ranks
# oversubscribed on this machine: LAMMPS (melt, peptide), HPCC, OpenFOAM's
# icoFoam cavity (decomposed), Quantum ESPRESSO pw.x (an SCF of silicon)
# and CP2K (an SCF of one water molecule); inputs in bench/realapps/, Debian
# packages installed when missing (as root).
#
# Usage (from the repository root):
#   sh bench/realapps.sh trace [APP...]   the traces alone, into
#                                         bench/out/realapps/traces/APP
#   sh bench/realapps.sh simgrid [APP...] the SimGrid column alone, from the
#                                         traces already there (or in $TRACES)
#   sh bench/realapps.sh overhead [APP...] the tracer's overhead alone:
#                                         ROUNDS runs without and with the
#                                         tracer, alternately; medians of wall
#                                         and of processor time (all ranks)
#   sh bench/realapps.sh [all] [APP...]   the traces and the whole bench:
#     - the tracer's overhead: ROUNDS (3) runs without and with
#       libmapsim-trace, alternately, medians; the application's result
#       line must be the same;
#     - per sender/receiver pair, the traced point-to-point messages and
#       bytes against Open MPI's pml_monitoring counters of the same run
#       (its external traffic less the tracer's clock synchronisation: 20
#       messages of 0 bytes from every rank to rank 0 and 20 of 8 bytes
#       back; coll/tuned's MPI_Alltoallv, counted as external traffic by
#       default, is switched to an algorithm the monitor counts as internal;
#       messages a rank sends to itself are traced, not monitored);
#     - `mapsim simulate` of the trace on torus:2x2x2 in every network
#       model: makespan and the pre/post check;
#     - `mapsim compare` of the strategies on torus:2x2x2 (flow model);
#     - `mapsim export simgrid --preset simgrid --compute-scale 0` replayed
#       by smpirun.sh (no deadlock) against `mapsim simulate` with the same
#       options.
#   The table goes to standard output and bench/out/realapps/table.md; each
#   step's output stays in bench/out/realapps/APP/.
# Environment: BUILD (default build), ROUNDS (3), APPS_NP (8), TRACES (where
# `simgrid` reads the traces, default bench/out/realapps/traces).
set -eu
cmd=${1:-all}
case $cmd in trace|all|simgrid|overhead) shift 2>/dev/null || true ;; *) cmd=all ;; esac
apps=${*:-melt peptide hpcc cavity qe cp2k}
build=${BUILD:-build}
rounds=${ROUNDS:-3}
np=${APPS_NP:-8}
src=$(pwd)/bench/realapps
out=$(pwd)/bench/out/realapps
case $build in /*) ;; *) build=$(pwd)/$build ;; esac
mapsim=$build/mapsim
tracer=$build/traces/tracer/libmapsim-trace.so
plat=torus:2x2x2
[ -x "$mapsim" ] && [ -f "$tracer" ] ||
  { echo "realapps: build $build first (meson with Open MPI)" >&2; exit 2; }
[ -d "$src" ] || { echo "realapps: run from the repository root" >&2; exit 2; }

# ---- Debian packages ------------------------------------------------------
need() { # program package
  command -v "$1" > /dev/null 2>&1 && return 0
  [ "$(id -u)" = 0 ] || { echo "realapps: $1 missing: apt-get install $2" >&2; exit 2; }
  echo "realapps: installing $2" >&2
  apt-get -o DPkg::Lock::Timeout=900 install -y --no-install-recommends "$2" > /dev/null
}
for a in $apps; do
  [ "$cmd" = simgrid ] && continue
  case $a in
    melt|peptide) need lmp lammps ;;
    hpcc) need hpcc hpcc ;;
    cavity) need icoFoam openfoam ;;
    qe) need pw.x quantum-espresso ;;
    cp2k) need cp2k.popt cp2k; [ -f /usr/share/cp2k/GTH_POTENTIALS ] || need /nonexistent cp2k-data ;;
    *) echo "realapps: unknown application $a (melt peptide hpcc cavity qe cp2k)" >&2; exit 2 ;;
  esac
done
command -v smpirun > /dev/null 2>&1 || need smpirun libsimgrid-dev

export OMPI_MCA_btl_vader_single_copy_mechanism=none OMP_NUM_THREADS=1
export FOAM_ETC=/usr/share/openfoam/etc WM_PROJECT_DIR=/usr/share/openfoam
root=""
[ "$(id -u)" = 0 ] && root="--allow-run-as-root"
mpi() { # mpirun with this machine's options; the rest of the arguments follow
  mpirun $root --oversubscribe -np "$np" -x OMP_NUM_THREADS -x FOAM_ETC -x WM_PROJECT_DIR "$@"
}

# ---- the applications -----------------------------------------------------
# prepare APP DIR: a fresh working copy of the inputs
prepare() {
  rm -rf "$2"
  mkdir -p "$2"
  case $1 in
    melt) cp "$src/lammps/in.melt" "$2/" ;;
    peptide) cp "$src/lammps/in.peptide" "$src/lammps/data.peptide" "$2/" ;;
    hpcc) cp "$src/hpcc/hpccinf.txt" "$2/" ;;
    cavity) cp -r "$src/cavity/0" "$src/cavity/constant" "$src/cavity/system" "$2/"
            # one subdomain per rank: np x 1 x 1 when not the 8 of the file
            [ "$np" = 8 ] || sed -i -e "s/^numberOfSubdomains 8;/numberOfSubdomains $np;/" \
              -e "s/n           (4 2 1);/n           ($np 1 1);/" "$2/system/decomposeParDict"
            (cd "$2" && blockMesh > log.blockMesh 2>&1 && decomposePar > log.decomposePar 2>&1) ;;
    qe) cp "$src/qe/si.scf.in" "$src/qe/Si.pz-vbc.UPF" "$2/" ;;
    cp2k) cp "$src/cp2k/h2o.inp" "$2/" ;;
  esac
}
# program APP: the command line of the ranks
program() {
  case $1 in
    melt) echo "lmp -in in.melt -log none" ;;
    peptide) echo "lmp -in in.peptide -log none" ;;
    hpcc) echo "hpcc" ;;
    cavity) echo "icoFoam -parallel" ;;
    qe) echo "pw.x -in si.scf.in" ;;
    cp2k) echo "cp2k.popt -i h2o.inp" ;;
  esac
}
# result APP DIR LOG: the line that says what the run computed
result() {
  case $1 in
    melt) grep -E '^ +[0-9]+ ' "$3" | tail -1 | awk '{$NF=$NF; print}' ;;
    peptide) grep 'TotEng' "$3" | tail -1 ;;
    hpcc) grep -E '^(HPL_Tflops|Success)=' "$2/hpccoutf.txt" | sed 's/HPL_Tflops=.*/HPL ran/' | sort | tr '\n' ' ' ;;
    cavity) grep -c '^Time = ' "$3" | sed 's/$/ time steps/' ;;
    qe) grep '^!' "$3" | tail -1 ;;
    cp2k) grep 'Total energy:' "$3" | tail -1 ;;
  esac
}

now() { date +%s.%N; }
median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

# run APP DIR LOG TRACE_DIR|"" [extra mpirun options...]: one run, its wall time
run() {
  run_app=$1 run_dir=$2 run_log=$3 run_trace=$4
  shift 4
  t0=$(now)
  run_rc=0
  if [ -n "$run_trace" ]; then
    (cd "$run_dir" && MAPSIM_TRACE_DIR=$run_trace mpi -x LD_PRELOAD="$tracer" -x MAPSIM_TRACE_DIR \
       "$@" $(program "$run_app")) > "$run_log" 2>&1 || run_rc=$?
  else
    (cd "$run_dir" && mpi "$@" $(program "$run_app")) > "$run_log" 2>&1 || run_rc=$?
  fi
  echo "$(now) $t0" | awk '{printf "%.2f\n", $1 - $2}'
  return $run_rc
}

# simgrid APP TRACE DIR: `mapsim export simgrid --preset simgrid
# --compute-scale 0` replayed by smpirun.sh against `mapsim simulate` with
# the same options (flow model): "SimGrid s vs mapsim s (difference)"
simgrid() {
  rm -rf "$3/sg"
  "$mapsim" export simgrid -q -p "$plat" -t "$2" --preset simgrid --compute-scale 0 -o "$3/sg" \
    > "$3/export.txt" 2>&1
  sgrc=0
  sh "$3/sg/smpirun.sh" > "$3/smpirun.log" 2>&1 || sgrc=$?
  sg=$(sed -n 's/^\[\([0-9.e+-]*\)\] Simulation time.*/\1/p' "$3/smpirun.log" | tail -1)
  "$mapsim" simulate -q -p "$plat" -t "$2" --preset simgrid --model flow --compute-scale 0 \
    --json > "$3/sim-simgrid.json"
  ms=$(grep -o '"makespan_s" : [0-9.e+-]*' "$3/sim-simgrid.json" | head -1 | awk '{print $3}')
  rm -rf "$3/sg"
  echo "${sg:-0} $ms $sgrc" | awk '$3 != 0 {print "FAILED (status " $3 ")"; exit}
    {x = $1 > 0 ? 100 * ($2 - $1) / $1 : 0; printf "%.9g s vs %.9g s (%+.4f%%)", $1, $2, x}'
}

if [ "$cmd" = simgrid ]; then
  traces=${TRACES:-$out/traces}
  echo "| app | SimGrid vs mapsim, \`--preset simgrid --compute-scale 0\` |"
  echo "|---|---|"
  for app in $apps; do
    [ -d "$traces/$app" ] || { echo "realapps: no trace $traces/$app (sh bench/realapps.sh trace $app)" >&2; exit 2; }
    mkdir -p "$out/$app"
    echo "| $app | $(simgrid "$app" "$traces/$app" "$out/$app") |"
  done
  exit 0
fi

# cpu FILE: the processor time (user + system) of the finished children of
# this shell so far, in seconds, into FILE (`times` must run in this shell,
# not in a command substitution's)
cpu() {
  times > "$1.times"
  awk 'NR == 2 {for (i = 1; i <= 2; i++) {split($i, t, /[ms]/); s += t[1] * 60 + t[2]}; print s}' \
    "$1.times" > "$1"
  rm -f "$1.times"
}

if [ "$cmd" = overhead ]; then
  echo "| app | ranks | wall plain / traced (median of $rounds) | processor plain / traced (median) |"
  echo "|---|---|---|---|"
  for app in $apps; do
    w=$out/$app
    mkdir -p "$w"
    : > "$w/plain.times"; : > "$w/traced.times"; : > "$w/plain.cpu"; : > "$w/traced.cpu"
    for r in $(seq "$rounds"); do
      for mode in plain traced; do
        prepare "$app" "$w/run"
        rm -rf "$w/ovh-trace"
        tr_dir=; [ $mode = traced ] && tr_dir=$w/ovh-trace
        cpu "$w/cpu0"
        run "$app" "$w/run" "$w/$mode.log" "$tr_dir" >> "$w/$mode.times" ||
          { echo "realapps: $app failed ($mode), see $w/$mode.log" >&2; exit 1; }
        cpu "$w/cpu1"
        paste "$w/cpu1" "$w/cpu0" | awk '{printf "%.2f\n", $1 - $2}' >> "$w/$mode.cpu"
      done
      [ "$(result "$app" "$w/run" "$w/plain.log")" = "$(result "$app" "$w/run" "$w/traced.log")" ] ||
        { echo "realapps: $app computed differently under the tracer" >&2; exit 1; }
    done
    rm -rf "$w/ovh-trace"
    echo "$(median < "$w/plain.times") $(median < "$w/traced.times") $(median < "$w/plain.cpu") $(median < "$w/traced.cpu")" |
      awk -v app="$app" -v np="$np" '{printf "| %s | %s | %.1f s / %.1f s (%+.1f%%) | %.1f s / %.1f s (%+.1f%%) |\n",
        app, np, $1, $2, 100 * ($2 - $1) / $1, $3, $4, 100 * ($4 - $3) / $3}'
  done
  exit 0
fi

mkdir -p "$out/traces"
for app in $apps; do
  w=$out/$app
  mkdir -p "$w"
  trace=$out/traces/$app
  rm -rf "$trace"
  if [ "$cmd" = trace ]; then
    prepare "$app" "$w/run"
    run "$app" "$w/run" "$w/traced.log" "$trace" > /dev/null ||
      { echo "realapps: $app failed under the tracer, see $w/traced.log" >&2; exit 1; }
    echo "$app: $trace ($(tail -1 "$w/traced.log" | sed 's/^mapsim-trace: //'))"
    continue
  fi
  # overhead: plain and traced runs alternately
  : > "$w/plain.times"
  : > "$w/traced.times"
  for r in $(seq "$rounds"); do
    prepare "$app" "$w/run"
    run "$app" "$w/run" "$w/plain.log" "" >> "$w/plain.times" ||
      { echo "realapps: $app failed, see $w/plain.log" >&2; exit 1; }
    plain_result=$(result "$app" "$w/run" "$w/plain.log")
    prepare "$app" "$w/run"
    rm -rf "$trace"
    run "$app" "$w/run" "$w/traced.log" "$trace" >> "$w/traced.times" ||
      { echo "realapps: $app failed under the tracer, see $w/traced.log" >&2; exit 1; }
    traced_result=$(result "$app" "$w/run" "$w/traced.log")
    [ "$plain_result" = "$traced_result" ] ||
      { echo "realapps: $app computed '$traced_result' traced, '$plain_result' plain" >&2; exit 1; }
  done
  plain=$(median < "$w/plain.times")
  traced=$(median < "$w/traced.times")
  # Open MPI's own counters of a traced run, pair by pair
  prepare "$app" "$w/run"
  rm -rf "$w/mon" "$w/mon-trace"
  mkdir -p "$w/mon"
  run "$app" "$w/run" "$w/monitored.log" "$w/mon-trace" --mca pml_monitoring_enable 2 \
    --mca pml_monitoring_enable_output 3 --mca pml_monitoring_filename "$w/mon/prof" \
    --mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_alltoallv_algorithm 2 > /dev/null
  "$mapsim" trace matrix -q "$w/mon-trace" --kind count -o "$w/count.csv"
  "$mapsim" trace matrix -q "$w/mon-trace" --kind bytes -o "$w/bytes.csv"
  monitor=$(cat "$w"/mon/prof.*.prof | awk -F'\t' -v n="$np" -v c="$w/count.csv" -v b="$w/bytes.csv" '
    BEGIN { for (s = 0; s < n; s++) {
              getline line < c; split(line, x, ","); for (d = 0; d < n; d++) tm[s, d] = x[d + 1]
              getline line < b; split(line, y, ","); for (d = 0; d < n; d++) tb[s, d] = y[d + 1] } }
    $1 == "E" { split($4, p, " "); split($5, q, " "); mb[$2, $3] += p[1]; mm[$2, $3] += q[1] }
    END { for (s = 1; s < n; s++) { mm[s, 0] -= 20; mm[0, s] -= 20; mb[0, s] -= 160 }
          eq = 0; msgs = 0; bytes = 0; self = 0
          for (s = 0; s < n; s++) for (d = 0; d < n; d++) {
            if (s == d) { self += tm[s, d]; continue }
            msgs += mm[s, d]; bytes += mb[s, d]
            if (mm[s, d] == tm[s, d] && mb[s, d] == tb[s, d]) eq++
            else printf "%d->%d: monitor %.0f msgs %.0f B, trace %.0f msgs %.0f B\n", s, d, mm[s, d], mb[s, d], tm[s, d], tb[s, d] > "/dev/stderr" }
          printf "%d/%d pairs equal (%.0f msgs, %.0f B)", eq, n * (n - 1), msgs, bytes
          if (self) printf "; %.0f traced to self, which the monitor does not count", self }' 2> "$w/monitor.diff")
  rm -rf "$w/mon-trace"
  # replays: every model, the strategies, SimGrid
  models=""
  for m in analytic flow flow-hd packet packet-vct packet-buf; do
    "$mapsim" simulate -q -p "$plat" -t "$trace" --model "$m" --json > "$w/sim-$m.json" 2> "$w/sim-$m.err" ||
      echo "realapps: $app: simulate --model $m failed, see $w/sim-$m.err" >&2
    ok=$(grep -o '"pre_post_match" : [a-z]*' "$w/sim-$m.json" | awk '{print $3 == "true" ? "ok" : "DIFFER"}')
    ms=$(grep -o '"makespan_s" : [0-9.e+-]*' "$w/sim-$m.json" | head -1 | awk '{printf "%.4g", $3}')
    models="$models $m ${ms}s $ok;"
  done
  "$mapsim" compare -q -t "$trace" -p "$plat" -s identity -s random -s greedy -s greedy+wh+mc \
    -s scotch -s hilbert > "$w/compare.txt" 2>&1 || true
  # each strategy's makespan and busiest link against identity's
  ranking=$(awk '$1 ~ /^=?[0-9]+$/ && $2 != "identity" {
      n = 0; for (i = 3; i <= NF; i++) if ($i ~ /^\(/) { n++; c[n] = $i }
      gsub(/[()]/, "", c[2]); gsub(/[()]/, "", c[4])
      printf "%s%s %s (link %s)", k++ ? ", " : "", $2, c[4], c[2] }' "$w/compare.txt")
  simgrid=$(simgrid "$app" "$trace" "$w")
  info=$("$mapsim" trace info "$trace" | awk '/^p2p/ {print $2 " msgs"} /^collectives/ {print $2 " colls"}' | tr '\n' ' ')
  overhead=$(echo "$plain $traced" | awk '{printf "%.1f s / %.1f s (%+.0f%%)", $1, $2, 100 * ($2 - $1) / $1}')
  echo "| $app | $info| $overhead | $monitor | $models | $ranking | $simgrid |" | tee -a "$out/table.md.new"
done
if [ "$cmd" = all ]; then
  {
    echo "| app | trace | plain / traced (median of $rounds) | p2p vs pml_monitoring | simulate $plat (makespan, pre=post) | compare (flow): makespan (busiest link) against identity | SimGrid vs mapsim, --compute-scale 0 |"
    echo "|---|---|---|---|---|---|---|"
    cat "$out/table.md.new"
  } > "$out/table.md"
  rm -f "$out/table.md.new"
  echo "realapps: table in $out/table.md; traces in $out/traces/"
fi
