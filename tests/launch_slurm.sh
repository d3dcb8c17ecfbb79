#!/usr/bin/env bash
# launch_slurm.sh - Slurm places a job's tasks by mapsim's slurm-hostfile:
# on a real Slurm cluster of four nodes (four slurmds of this machine,
# tests/slurm_cluster.sh), `srun --distribution=arbitrary` with
# SLURM_HOSTFILE from `mapsim export mapping --format slurm-hostfile` runs
# every task on the node the mapping gives its rank (SLURMD_NODENAME).
set -euo pipefail

MAPSIM=${MAPSIM:?run through meson test}
SRC=${MAPSIM_SRC:?run through meson test}

source "$SRC/tests/slurm_cluster.sh"
slurm_cluster_start sim-a sim-b sim-c sim-d

# 6 ranks on a 2x2 torus of 2-core nodes named sim-a .. sim-d, not in rank order
printf '0 2\n1 0\n2 2\n3 3\n4 1\n5 0\n' > "$TMP/job.map"
printf 'sim-a\nsim-b\nsim-c\nsim-d\n' > "$TMP/hosts"
"$MAPSIM" export mapping -p torus:2x2 --cores 2 -M "$TMP/job.map" --format slurm-hostfile \
  --hosts "$TMP/hosts" -o "$TMP/job.hosts"
SLURM_HOSTFILE="$TMP/job.hosts" timeout 120 srun --distribution=arbitrary -n 6 \
  bash -c 'echo "rank $SLURM_PROCID host $SLURMD_NODENAME"' > "$TMP/out" 2> "$TMP/err" ||
  { cat "$TMP/err" "$TMP/slurmctld.log" >&2; exit 1; }
names=(sim-a sim-b sim-c sim-d)
while read -r rank node; do
  want="rank $rank host ${names[$node]}"
  grep -qx "$want" "$TMP/out" || { echo "'$want' missing in:" >&2; cat "$TMP/out" >&2; exit 1; }
done < "$TMP/job.map"
echo "Slurm placed the 6 tasks where the mapping says: $(sort "$TMP/out" | tr '\n' ';')"
