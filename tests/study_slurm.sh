#!/usr/bin/env bash
# study_slurm.sh - a study through a real one-node Slurm cluster: the
# emitted job array runs its slices under slurmd, `study --merge` joins
# them, and the result equals the single-machine results.csv (every column
# but map_s, the strategies' wall time).
#
# Installs Debian's slurm-wlm and munge when they are missing (as root),
# starts munged (if none answers), slurmctld and slurmd in the foreground
# from a slurm.conf in a temporary folder, and stops what it started by
# PID. Exit 77 (meson: skipped) only when the daemons cannot be started.
set -euo pipefail

MAPSIM=${MAPSIM:?run through meson test}
SRC=${MAPSIM_SRC:?run through meson test}
STUDY="$SRC/tests/data/studies/y_grid.ini"

skip() {
  echo "SKIP: $*" >&2
  exit 77
}

have_all() {
  command -v slurmctld && command -v slurmd && command -v sbatch && command -v munged &&
    command -v munge
} > /dev/null 2>&1

if ! have_all; then
  [ "$(id -u)" = 0 ] || skip "slurm-wlm and munge are not installed and this is not root"
  echo "installing slurm-wlm and munge (apt-get)"
  log=$(mktemp)
  if ! { apt-get update && DEBIAN_FRONTEND=noninteractive \
      apt-get install -y --no-install-recommends slurm-wlm munge; } > "$log" 2>&1; then
    tail -n 20 "$log" >&2
    rm -f "$log"
    skip "could not install slurm-wlm and munge"
  fi
  rm -f "$log"
  have_all || skip "slurm-wlm installed but its daemons are not on PATH"
fi

TMP=$(mktemp -d "${TMPDIR:-/tmp}/mapsim-slurm-XXXXXX")
PIDS=()
cleanup() {
  for ((i = ${#PIDS[@]} - 1; i >= 0; i--)); do
    kill "${PIDS[i]}" 2> /dev/null || true
  done
  for pid in "${PIDS[@]}"; do
    for _ in $(seq 50); do
      kill -0 "$pid" 2> /dev/null || break
      sleep 0.1
    done
    kill -9 "$pid" 2> /dev/null || true
    wait "$pid" 2> /dev/null || true
  done
  rm -rf "$TMP"
}
trap cleanup EXIT

# munge: use a running munged, else start one as the munge user
if ! munge -n 2> /dev/null | unmunge > /dev/null 2>&1; then
  [ "$(id -u)" = 0 ] || skip "no munged answers and only root can start one"
  mkdir -p /run/munge /var/log/munge /var/lib/munge
  chown munge:munge /run/munge /var/log/munge /var/lib/munge
  [ -f /etc/munge/munge.key ] || skip "/etc/munge/munge.key missing"
  setpriv --reuid munge --regid munge --init-groups munged -F > "$TMP/munged.log" 2>&1 &
  PIDS+=($!)
  for _ in $(seq 50); do
    munge -n 2> /dev/null | unmunge > /dev/null 2>&1 && break
    sleep 0.1
  done
  munge -n 2> /dev/null | unmunge > /dev/null 2>&1 ||
    { cat "$TMP/munged.log" >&2; skip "munged did not start"; }
fi

HOST=$(hostname -s)
CPUS=$(nproc)
PORT=$((17000 + $$ % 2000))
mkdir -p "$TMP/state" "$TMP/spool"
export SLURM_CONF="$TMP/slurm.conf"
cat > "$SLURM_CONF" << EOF
ClusterName=mapsimtest
SlurmctldHost=$HOST
SlurmctldPort=$PORT
SlurmdPort=$((PORT + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=$TMP/state
SlurmdSpoolDir=$TMP/spool
SlurmctldPidFile=$TMP/slurmctld.pid
SlurmdPidFile=$TMP/slurmd.pid
SlurmctldLogFile=$TMP/slurmctld.log
SlurmdLogFile=$TMP/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
NodeName=$HOST CPUs=$CPUS State=UNKNOWN
PartitionName=debug Nodes=$HOST Default=YES MaxTime=INFINITE State=UP
EOF

slurmctld -D -f "$SLURM_CONF" > "$TMP/slurmctld.out" 2>&1 &
PIDS+=($!)
slurmd -D -f "$SLURM_CONF" > "$TMP/slurmd.out" 2>&1 &
PIDS+=($!)
state=""
for _ in $(seq 150); do
  state=$(sinfo -h -o %t 2> /dev/null || true)
  [ "$state" = idle ] && break
  sleep 0.2
done
if [ "$state" != idle ]; then
  tail -n 5 "$TMP"/slurmctld.log "$TMP"/slurmd.log "$TMP"/*.out >&2 2> /dev/null || true
  skip "the one-node cluster did not come up (node state '$state')"
fi
echo "one-node Slurm cluster up on $HOST (port $PORT)"

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
