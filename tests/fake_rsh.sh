#!/bin/sh
# fake_rsh.sh - a remote shell for launcher tests on one machine: Open
# MPI's mpirun (--mca plm_rsh_agent) and MPICH's mpiexec (-launcher-exec)
# call it as `fake_rsh.sh [-options] HOST COMMAND...`; it runs COMMAND here
# with MAPSIM_FAKE_HOST=HOST, which the daemons pass on to the ranks they
# start, so each rank can tell which host the launcher gave it.
while [ $# -gt 1 ] && [ "${1#-}" != "$1" ]; do
  shift
done
MAPSIM_FAKE_HOST=$1
export MAPSIM_FAKE_HOST
shift
exec sh -c "$*"
