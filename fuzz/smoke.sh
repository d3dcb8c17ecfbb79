#!/bin/sh
# smoke.sh HARNESS RUNS SEED... - runs a libFuzzer harness for RUNS
# executions from the seed files and folders, with new inputs kept in a
# temporary corpus that is removed afterwards (the seeds are never
# written). Fails on any crash, leak, sanitizer report or hang (10 s); the
# input that failed is kept as fuzz-failure-HARNESS-* in the current
# folder (meson test: the build folder). The mutations follow a fixed seed
# (FUZZ_SEED, default 1) so that a CI run can be repeated exactly; the
# long runs of docs/FUZZING.md are where new inputs are searched for.
set -u
harness=$1
runs=$2
shift 2
corpus=$(mktemp -d "${TMPDIR:-/tmp}/mapsim-fuzz-smoke-XXXXXX")
trap 'rm -rf "$corpus"' EXIT INT TERM
mkdir "$corpus/in" "$corpus/out"
# seeds as single files in the corpus folder: libFuzzer writes new inputs
# into its first folder only
for s in "$@"; do
  if [ -d "$s" ]; then
    for f in "$s"/*; do
      [ -f "$f" ] && cp "$f" "$corpus/in/$(basename "$s")-$(basename "$f")"
    done
  else
    cp "$s" "$corpus/in/$(basename "$s")"
  fi
done
LSAN_OPTIONS="suppressions=$(dirname "$0")/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}" \
"$harness" -seed="${FUZZ_SEED:-1}" -runs="$runs" -timeout=10 -max_len=262144 -print_final_stats=1 \
  -error_exitcode=1 -timeout_exitcode=1 \
  -artifact_prefix="$corpus/out/" "$corpus/in" > "$corpus/log" 2>&1
status=$?
tail -n 25 "$corpus/log"
if [ "$status" != 0 ]; then
  for f in "$corpus"/out/*; do
    [ -f "$f" ] && cp "$f" "fuzz-failure-$(basename "$harness")-$(basename "$f")" &&
      echo "smoke.sh: the failing input is fuzz-failure-$(basename "$harness")-$(basename "$f")"
  done
fi
exit "$status"
