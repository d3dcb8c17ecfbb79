#!/bin/sh
# fake_rsh.sh - a remote shell for launcher tests on one machine: Open
# MPI's mpirun (--mca plm_rsh_agent) and MPICH's mpiexec (-launcher-exec)
# call it as `fake_rsh.sh [-options] HOST COMMAND...`; it runs COMMAND here
# with MAPSIM_FAKE_HOST=HOST, which the daemons pass on to the ranks they
# start, so each rank can tell which host the launcher gave it. With
# MAPSIM_FAKE_TMP set, each fake host gets its own Open MPI session
# directory below it: daemons of one real host share one by default, and
# one daemon's clean-up removing a directory another is creating failed a
# run ("mkdir ... File exists" in orte_session_dir, then "unable to
# complete a TCP connection"). mpirun passes its own orte_tmpdir_base on
# the daemon's command line, which wins over the environment, so the
# value is replaced there too.
while [ $# -gt 1 ] && [ "${1#-}" != "$1" ]; do
  shift
done
MAPSIM_FAKE_HOST=$1
export MAPSIM_FAKE_HOST
if [ -n "$MAPSIM_FAKE_TMP" ]; then
  mkdir -p "$MAPSIM_FAKE_TMP/$1" || exit 1
  OMPI_MCA_orte_tmpdir_base=$MAPSIM_FAKE_TMP/$1
  export OMPI_MCA_orte_tmpdir_base
  shift
  exec sh -c "$(printf '%s' "$*" |
    sed "s|orte_tmpdir_base \"[^\"]*\"|orte_tmpdir_base \"$OMPI_MCA_orte_tmpdir_base\"|")"
fi
shift
exec sh -c "$*"
