# slurm_cluster.sh - a real Slurm cluster on this machine for the tests
# that need one (sourced by study_slurm.sh and launch_slurm.sh; bash).
#
# slurm_cluster_start [NODE...] installs Debian's slurm-wlm and munge when
# they are missing (as root), starts a munged of its own (as root; else it
# uses the system's), slurmctld and
# one slurmd per node in the foreground from a slurm.conf in $TMP (a
# temporary folder it makes), and waits until every node is idle. Without
# NODE names the one node is this host; named nodes are slurmds of this
# host, each started with -N NAME on its own port. A caller's function
# slurm_cluster_hook, when defined, runs just before the daemons start
# (slurm.conf written, $TMP its folder): it may add lines and files such
# as a topology.conf. Exports SLURM_CONF. What
# it started is stopped by PID (and $TMP removed) on exit. Exit 77 (meson:
# skipped) only when the daemons cannot be started.

munge_answers() {
  munge -n ${MUNGE_SOCKET:+--socket="$MUNGE_SOCKET"} 2> /dev/null |
    unmunge ${MUNGE_SOCKET:+--socket="$MUNGE_SOCKET"} > /dev/null 2>&1
}

skip() {
  echo "SKIP: $*" >&2
  exit 77
}

have_all() {
  command -v slurmctld && command -v slurmd && command -v sbatch && command -v munged &&
    command -v munge
} > /dev/null 2>&1

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

# The first of N consecutive TCP ports nobody listens on (other clusters of
# other test runs may be up on this machine at the same time).
free_ports() {
  local used n=$1 c i k
  used=$(ss -Hltn 2> /dev/null | awk '{ n = split($4, a, ":"); print a[n] }')
  for ((i = 0; i < 1000; i++)); do
    c=$((15000 + ($$ * 7 + i * n) % 30000))
    for ((k = 0; k < n; k++)); do
      grep -qx "$((c + k))" <<< "$used" && break
    done
    [ "$k" = "$n" ] && { echo "$c"; return; }
  done
  echo $((17000 + $$ % 2000))
}

slurm_cluster_start() {
  if ! have_all; then
    [ "$(id -u)" = 0 ] || skip "slurm-wlm and munge are not installed and this is not root"
    echo "installing slurm-wlm and munge (apt-get)"
    local log
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
  trap cleanup EXIT

  # munge: as root, a munged of this cluster's own on a socket in $TMP, so
  # that the clusters of test runs at the same time never share one (a run
  # stopping the munged it started cut the others' daemons off, which then
  # waited for their controller until the test's timeout); else the
  # system's
  MUNGE_SOCKET=
  if [ "$(id -u)" = 0 ]; then
    [ -f /etc/munge/munge.key ] || skip "/etc/munge/munge.key missing"
    chmod 711 "$TMP"
    mkdir -p "$TMP/munge"
    chown munge:munge "$TMP/munge"
    chmod 711 "$TMP/munge" # munged wants its socket reachable by everyone
    MUNGE_SOCKET=$TMP/munge/munge.socket
    setpriv --reuid munge --regid munge --init-groups munged -F --socket="$MUNGE_SOCKET" \
      --pid-file="$TMP/munge/munged.pid" --seed-file="$TMP/munge/munged.seed" \
      --log-file="$TMP/munge/munged.log" --key-file=/etc/munge/munge.key \
      > "$TMP/munged.log" 2>&1 &
    PIDS+=($!)
    for _ in $(seq 50); do
      munge_answers && break
      sleep 0.1
    done
    munge_answers || { cat "$TMP/munged.log" >&2; skip "munged did not start"; }
  elif ! munge_answers; then
    skip "no munged answers and only root can start one"
  fi

  local host cpus port names nodes=("$@")
  host=$(hostname -s)
  cpus=$(nproc)
  port=$(free_ports $((2 + $#)))
  mkdir -p "$TMP/state"
  export SLURM_CONF="$TMP/slurm.conf"
  cat > "$SLURM_CONF" << EOF
ClusterName=mapsimtest
SlurmctldHost=$host
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
${MUNGE_SOCKET:+AuthInfo=socket=$MUNGE_SOCKET}
StateSaveLocation=$TMP/state
SlurmdSpoolDir=$TMP/spool-%n
SlurmctldPidFile=$TMP/slurmctld.pid
SlurmdPidFile=$TMP/slurmd-%n.pid
SlurmctldLogFile=$TMP/slurmctld.log
SlurmdLogFile=$TMP/slurmd-%n.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
EOF
  if [ ${#nodes[@]} = 0 ]; then
    echo "NodeName=$host CPUs=$cpus State=UNKNOWN" >> "$SLURM_CONF"
    names=$host
    mkdir -p "$TMP/spool-$host"
  else
    local k=2
    for n in "${nodes[@]}"; do
      echo "NodeName=$n NodeHostname=$host NodeAddr=127.0.0.1 Port=$((port + k)) CPUs=$cpus" \
        "State=UNKNOWN" >> "$SLURM_CONF"
      mkdir -p "$TMP/spool-$n"
      k=$((k + 1))
    done
    names=$(IFS=,; echo "${nodes[*]}")
  fi
  echo "PartitionName=debug Nodes=$names Default=YES MaxTime=INFINITE State=UP" >> "$SLURM_CONF"
  if declare -F slurm_cluster_hook > /dev/null; then
    slurm_cluster_hook "$TMP"
  fi

  slurmctld -D -f "$SLURM_CONF" > "$TMP/slurmctld.out" 2>&1 &
  PIDS+=($!)
  if [ ${#nodes[@]} = 0 ]; then
    slurmd -D -f "$SLURM_CONF" > "$TMP/slurmd.out" 2>&1 &
    PIDS+=($!)
  else
    for n in "${nodes[@]}"; do
      slurmd -D -N "$n" -f "$SLURM_CONF" > "$TMP/slurmd-$n.out" 2>&1 &
      PIDS+=($!)
    done
  fi
  local want=$((${#nodes[@]} > 0 ? ${#nodes[@]} : 1)) idle=0
  for _ in $(seq 150); do
    idle=$(sinfo -h -N -o %t 2> /dev/null | grep -c '^idle$' || true)
    [ "$idle" = "$want" ] && break
    sleep 0.2
  done
  if [ "$idle" != "$want" ]; then
    tail -n 5 "$TMP"/*.log "$TMP"/*.out >&2 2> /dev/null || true
    skip "the Slurm cluster did not come up ($idle of $want nodes idle)"
  fi
  echo "Slurm cluster up on $host (port $port): $names"
}
