#!/bin/sh
# same-bytes.sh - everything mapsim prints or writes for the bundled inputs,
# one file per command, so that a change meant to move code and not to
# change behaviour can be checked: run it with the build before and after,
# then `diff -r BEFORE AFTER` must print nothing.
#   sh bench/same-bytes.sh BUILD OUTDIR     (BUILD holds mapsim)
# It covers every bundled trace on every topology family (each with every
# routing it has) under every network model, every strategy on three
# families, the static commands, the demo study and the test studies with
# their reports, timelines, link events and OTF2 outputs, several jobs,
# SimGrid's export and the help texts. Takes a few minutes on two cores.
set -u
build=$1
out=$2
mapsim="$(cd "$build" && pwd)/mapsim"
root="$(cd "$(dirname "$0")/.." && pwd)"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
cd "$root"

# Runs a command, its stdout, stderr and exit status into one file each.
run() {
  name=$1
  shift
  "$@" > "$out/$name.out" 2> "$out/$name.err"
  echo $? > "$out/$name.rc"
}

traces="traces/data/alltoall-16 traces/data/cg-16 traces/data/ring-8 traces/data/stencil3d-64
  tests/data/traces/casita-10_scorep_mpi_tags tests/data/traces/casita-2_jacobi_blame_cpu_015
  tests/data/traces/casita-4_mpi_ls_barr tests/data/traces/eztrace-fortran-4
  tests/data/traces/eztrace-tracer_app-4 tests/data/traces/eztrace-tracer_app-4-persistent
  tests/data/traces/pipit-ping-pong-otf2 tests/data/traces/tracer-stencil4d-32
  tests/data/traces/tracer-stencil4d-64"
# platform|extra options; every family with each of its routings
platforms="torus:4x4x4|
mesh:4x4x4|
haec:4x4x4|
torus:4x4x4:kinds=torus,torus,mesh|
configs/bgq-5d.ini|
configs/gemini-3d.ini|--cores 1
configs/haec-4x4x4.ini|
dragonfly:g=9:a=4:p=2:h=2|
dragonfly:g=9:a=4:p=2:h=2:routing=valiant|
dragonfly:g=9:a=4:p=2:h=2:routing=ugal|
dragonfly:g=5:a=4:p=4:h=1:arrangement=relative|
configs/sst-merlin-dragon72.ini|
configs/frontier-like.ini|
fattree:k=4:n=3|
fattree:k=4:n=3:routing=smodk|
fattree:k=4:n=3:routing=random-up|
fattree:k=4:n=3:routing=ecmp|
fattree:2;4,4;1,2;1,2|--cores 4
configs/fattree-2level-tapered.ini|
hyperx:4x4:p=4|
hyperx:4x4:p=4:routing=min-adaptive|
configs/hyperx-12x8.ini|
tests/data/slurm/tree.conf|--cores 8
tests/data/slurm/block.conf|--cores 4
tests/data/slurm/topology.yaml|--cores 4
tests/data/slurm/deep.conf|--cores 16"
models="analytic flow flow-hd packet packet-vct packet-buf"

slug() { printf '%s' "$1" | tr -c 'A-Za-z0-9._-' '_'; }

# 1. the static commands on every platform
echo "$platforms" | while IFS='|' read -r p extra; do
  s=$(slug "$p")
  run "topo-$s" "$mapsim" topo -p "$p" $extra
  run "topo-json-$s" "$mapsim" topo -p "$p" $extra --json
  run "route-$s" "$mapsim" route -p "$p" 0 5
done

# 2. every trace on every platform under every model (in parallel)
jobsfile="$out/.simulations"
: > "$jobsfile"
echo "$platforms" | while IFS='|' read -r p extra; do
  for t in $traces; do
    for m in $models; do
      echo "$(slug "sim-$p-$(basename "$t")-$m")|$p|$extra|$t|$m" >> "$jobsfile"
    done
  done
done
export mapsim out
xargs -P 2 -I LINE sh -c '
  IFS="|" read -r name p extra t m <<EOF
LINE
EOF
  "$mapsim" simulate -q -p "$p" $extra -t "$t" --model "$m" --compute-scale 0 --json \
    > "$out/$name.out" 2> "$out/$name.err"
  echo $? > "$out/$name.rc"' < "$jobsfile"
rm -f "$jobsfile"

# 3. every strategy on three families
strategies=$("$mapsim" strategies | sed -n 's/^\([a-z_0-9]*\) .*\[.*/\1/p')
for p in torus:4x4x4 dragonfly:g=9:a=4:p=2:h=2 fattree:k=4:n=3; do
  for s in $strategies; do
    for t in cg-16 stencil3d-64; do
      run "map-$(slug "$p-$s-$t")" "$mapsim" map -q -p "$p" -t traces/data/$t -s "$s" \
        --model flow -j 1 --json
    done
  done
done
run strategies "$mapsim" strategies
run metrics "$mapsim" metrics -p torus:4x4x4 -t traces/data/stencil3d-64 --json
run commstats "$mapsim" commstats -t traces/data/cg-16
run trace-info "$mapsim" trace info traces/data/cg-16 --json
run trace-matrix "$mapsim" trace matrix traces/data/ring-8 --kind bytes
run show "$mapsim" show -p mesh:4x4x2 -t traces/data/ring-8
run show-df "$mapsim" show -p dragonfly:g=3:a=2:p=2:h=1 -t traces/data/ring-8
run compare "$mapsim" compare -q -p torus:4x4x4 -p mesh:4x4x4 -t traces/data/cg-16 \
  -s identity -s greedy -s random
for pat in stencil2d stencil3d ring alltoall pingpong cg random shift bitcomp; do
  rm -rf "$out/gen-$pat"
  run "gen-$pat" "$mapsim" gen -q --pattern "$pat" --ranks 8 --nonblocking -o "$out/gen-$pat"
  run "gen-$pat-info" "$mapsim" trace info "$out/gen-$pat"
done
rm -rf "$out"/gen-*/
run export-simgrid "$mapsim" export simgrid -p torus:4x4x4 -t traces/data/cg-16 -o "$out/export-sg"
for c in $("$mapsim" --help | sed -n 's/^  \([a-z]*\)  .*/\1/p'); do
  run "help-$c" "$mapsim" "$c" --help
done

# 4. timelines, link events, OTF2 output, several jobs
for m in analytic flow packet; do
  run "timeline-$m" "$mapsim" simulate -q -p torus:4x4x4 -t traces/data/cg-16 --model "$m" \
    --timeline "$out/timeline-$m.json" --link-events "$out/links-$m.csv"
  run "timeline-df-$m" "$mapsim" simulate -q -p dragonfly:g=9:a=4:p=2:h=2:routing=ugal \
    -t traces/data/stencil3d-64 --model "$m" --timeline "$out/timeline-df-$m.json" \
    --timeline-links all
done
rm -rf "$out/otf2-out"
run out-trace "$mapsim" simulate -q -p haec:4x4x4 -t traces/data/stencil3d-64 --model flow \
  --out-trace "$out/otf2-out" --timeline-links dims
run out-trace-print otf2-print "$out/otf2-out/traces.otf2"
rm -rf "$out/otf2-out"
for j in tests/data/jobs/*.ini; do
  run "jobs-$(basename "$j")" "$mapsim" simulate -q -p mesh:8x4x4 --jobs "$j" --json
done

# 5. studies and their reports
rm -rf "$out/demo"
run study-demo "$mapsim" study -q --demo -o "$out/demo" -j 2
for s in y_grid y_jobs y_sweep; do
  rm -rf "$out/study-$s"
  run "study-$s" "$mapsim" study -q tests/data/studies/$s.ini -o "$out/study-$s" -j 2
done
run plot "$mapsim" plot tests/data/runs/y_cg16_identity_haec.json -o "$out/plot"
# What measures the machine rather than the run is blanked: wall and
# mapping times, the lock's process id, the cell logs (they hold timings),
# and which portfolio candidates were cut (a race by design).
find "$out" -path '*/cells/*' -delete 2>/dev/null
find "$out" -name study.lock -delete
sed -i "s|$out|OUT|g" "$out"/*.out "$out"/*.err 2>/dev/null
python3 - "$out" <<'PY'
import csv, io, os, re, sys
timed = ("wall_s", "events_per_s", "map_s", "seconds")
json_time = re.compile(r'("(?:%s)" : )[-0-9.e+]+' % "|".join(timed))
report_time = re.compile(r"[0-9]+\.[0-9]{3} s( \(cut\))?")
rate = re.compile(r"\([0-9.e+]+ events/s\)")
for root, _, files in os.walk(sys.argv[1]):
    for name in files:
        path = os.path.join(root, name)
        if not name.endswith((".out", ".json", ".csv")):
            continue
        text = open(path, encoding="utf-8", errors="surrogateescape").read()
        new = rate.sub("(R events/s)", report_time.sub("T s", json_time.sub(r"\1T", text)))
        if name.endswith(".csv") and "\n" in new:
            rows = list(csv.reader(io.StringIO(new)))
            cols = [i for i, h in enumerate(rows[0]) if h in timed]
            for r in rows[1:]:
                for i in cols:
                    if i < len(r):
                        r[i] = "T"
            buf = io.StringIO()
            csv.writer(buf, lineterminator="\n").writerows(rows)
            new = buf.getvalue()
        if new != text:
            open(path, "w", encoding="utf-8", errors="surrogateescape").write(new)
PY
exit 0
