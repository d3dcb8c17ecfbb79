#!/usr/bin/env bash
# study_slurm.sh - a study through a real one-node Slurm cluster: the
# emitted job array runs its slices under slurmd, `study --merge` joins
# them, and the result equals the single-machine results.csv (every column
# but map_s, the strategies' wall time).
#
# The cluster: tests/slurm_cluster.sh (slurm-wlm and munge installed when
# missing, daemons in the foreground, stopped by PID; exit 77, skipped,
# only when they cannot be started).
set -euo pipefail

MAPSIM=${MAPSIM:?run through meson test}
SRC=${MAPSIM_SRC:?run through meson test}
STUDY="$SRC/tests/data/studies/y_grid.ini"

source "$SRC/tests/slurm_cluster.sh"
slurm_cluster_start

# single machine
"$MAPSIM" study "$STUDY" -o "$TMP/single" -j 2 --quiet --no-report > /dev/null

# the same study as a job array of 3 tasks, then merged
"$MAPSIM" study "$STUDY" --emit-slurm "$TMP/batch" --slices 3 -j 1
timeout 300 sbatch --wait --quiet "$TMP/batch/study.sbatch" ||
  { tail -n 20 "$TMP"/batch/logs/* "$TMP/slurmctld.log" >&2 || true; exit 1; }
nlogs=$(ls "$TMP/batch/logs" | wc -l)
[ "$nlogs" = 3 ] || { echo "expected 3 array task logs, found $nlogs" >&2; exit 1; }
for k in 1 2 3; do
  [ -f "$TMP/batch/slice-$k-of-3.csv" ] ||
    { echo "slice $k wrote no results" >&2; cat "$TMP"/batch/logs/* >&2; exit 1; }
done
"$MAPSIM" study --merge "$TMP/batch" --no-report > /dev/null

# every column but map_s
strip() {
  awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "map_s") c = i }
           { out = ""; for (i = 1; i <= NF; i++) if (i != c) out = out $i ","; print out }' "$1"
}
if ! diff <(strip "$TMP/single/results.csv") <(strip "$TMP/batch/results.csv") > "$TMP/diff"; then
  echo "the merged results differ from the single-machine results:" >&2
  head -n 20 "$TMP/diff" >&2
  exit 1
fi
rows=$(($(wc -l < "$TMP/batch/results.csv") - 1))
echo "Slurm round trip: $rows cells in 3 array tasks, merged results.csv equals the single-machine one"
