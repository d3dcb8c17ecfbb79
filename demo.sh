#!/bin/sh
# demo.sh - the five-minute tour, `sh demo.sh` after a build (`./setup demo`
# runs the demo study instead): the paper's three 4x4x4 platforms, a bundled
# trace, and where its ranks should live.
set -eu
cd "$(dirname "$0")"
M=build/mapsim
T=traces/data/stencil3d-64
P="-p configs/mesh-4x4x4.ini -p configs/torus-4x4x4.ini -p configs/haec-4x4x4.ini"

echo "== 1. The platforms of korndoerfer2021: 4x4x4 mesh, torus and HAEC Box"
for k in mesh torus haec; do
  $M topo --platform configs/$k-4x4x4.ini | grep -E '^(platform|links|diameter|avg distance)' | tr -s ' ' | paste -sd ';' -
done
echo
echo "== 2. The application: a 3D stencil, 64 ranks (bundled OTF2 trace)"
$M trace info $T | sed -n '2,6p'
echo
echo "== 3. Replay on the three platforms with five mappings, links shared between"
echo "==    concurrent messages (flow model): static and simulated results, ranked"
$M compare -t $T $P -s identity -s random -s hilbert -s greedy+wh -s scotch
echo
echo "== 4. Communication only (--compute-scale 0): where the mapping shows"
$M compare -t $T $P -s identity -s random -s greedy+wh --compute-scale 0
