#!/usr/bin/env bash
# slurm_topology.sh - mapsim reads a topology.conf as Slurm does: a real
# slurmctld (tests/slurm_cluster.sh, TopologyPlugin=topology/tree, the
# files' nodes defined in slurm.conf) reads each tree of tests/data/slurm,
# and for every switch its level, the nodes below it and its child
# switches from `scontrol show topology` equal those `mapsim show` lists
# for the same file. Hostlists on both sides are expanded by Slurm itself
# (scontrol show hostnames), so mapsim's compressed lists are checked too.
# topology/block needs Slurm 23.11 or later (Debian 12 has 22.05): its
# comparison is skipped, saying so, when the plugin is missing.
set -euo pipefail

MAPSIM=${MAPSIM:?run through meson test}
SRC=${MAPSIM_SRC:?run through meson test}
DATA=$SRC/tests/data/slurm
FILES=(tree.conf deep.conf)

source "$SRC/tests/slurm_cluster.sh"

slurm_cluster_hook() {
  # the files' nodes: no slurmd behind them (a port nobody listens on)
  cat >> "$SLURM_CONF" << EOF
TopologyPlugin=topology/tree
NodeName=nid[001-012],cn[001-006] NodeHostname=$(hostname -s) NodeAddr=127.0.0.1 Port=9 CPUs=1 State=UNKNOWN
EOF
  cp "$DATA/${FILES[0]}" "$1/topology.conf"
}
slurm_cluster_start

# One line per switch: NAME LEVEL NODES... / CHILDREN... (sorted, expanded)
expand() {
  [ -n "$1" ] && scontrol show hostnames "$1" | sort | tr '\n' ' '
  true
}

from_slurm() {
  scontrol show topology | while read -r line; do
    local name level nodes switches
    name=$(sed -n 's/.*SwitchName=\([^ ]*\).*/\1/p' <<< "$line")
    level=$(sed -n 's/.*Level=\([0-9]*\).*/\1/p' <<< "$line")
    nodes=$(sed -n 's/.*Nodes=\([^ ]*\).*/\1/p' <<< "$line")
    switches=$(sed -n 's/.*Switches=\([^ ]*\).*/\1/p' <<< "$line")
    [ "$switches" = "(null)" ] && switches=
    echo "$name $level $(expand "$nodes")/ $(expand "$switches")"
  done | sort
}

# mapsim show's listing: indentation gives the parent; its levels count
# leaf switches as 1, Slurm's as 0
from_mapsim() {
  "$MAPSIM" show -p "$1" -m "$SRC/tests/data/y_pair.csv" 2> /dev/null |
    sed -n '/^switches of /,/^$/p' | sed '1d;/^$/d' > "$TMP/listing"
  local -a names depth
  local n=0
  while IFS= read -r line; do
    local body=${line#"${line%%[! ]*}"}
    depth[n]=$(((${#line} - ${#body}) / 2))
    names[n]=${body%% *}
    n=$((n + 1))
  done < "$TMP/listing"
  local i=0
  while IFS= read -r line; do
    local body=${line#"${line%%[! ]*}"} kids=() j
    read -r name _ level _ _ nodes <<< "$body"
    for ((j = i + 1; j < n && depth[j] > depth[i]; j++)); do
      [ "${depth[j]}" = $((depth[i] + 1)) ] && kids+=("${names[j]}")
    done
    local children
    children=$(printf '%s\n' "${kids[@]}" | sed '/^$/d' | sort | tr '\n' ' ')
    echo "$name $((level - 1)) $(expand "$nodes")/ $children"
    i=$((i + 1))
  done < "$TMP/listing" | sort
}

for f in "${FILES[@]}"; do
  cp "$DATA/$f" "$TMP/topology.conf"
  scontrol reconfigure
  first=$(sed -n 's/^[Ss]witch[Nn]ame=\([^ ]*\).*/\1/p' "$DATA/$f" | head -n 1)
  for _ in $(seq 50); do
    scontrol show topology 2> /dev/null | grep -q "SwitchName=$first " && break
    sleep 0.2
  done
  from_slurm > "$TMP/slurm.txt"
  from_mapsim "$DATA/$f" > "$TMP/mapsim.txt"
  [ -s "$TMP/slurm.txt" ] || { echo "$f: scontrol show topology printed nothing" >&2; exit 1; }
  if ! diff -u "$TMP/slurm.txt" "$TMP/mapsim.txt" >&2; then
    echo "$f: mapsim's tree differs from slurmctld's (- Slurm, + mapsim)" >&2
    exit 1
  fi
  echo "$f: $(wc -l < "$TMP/slurm.txt") switches, levels, nodes and children equal to slurmctld's"
done

plugins=$(dirname "$(find /usr/lib -name topology_tree.so 2> /dev/null | head -n 1)")
if [ ! -e "$plugins/topology_block.so" ]; then
  echo "note: this Slurm ($(scontrol --version)) has no topology/block (Slurm 23.11+):" \
    "block.conf and topology.yaml checked against hand-written expectations only" \
    "(test_slurm_topology)"
fi
