#!/bin/sh
# finalize_repeat.sh -- a job that ends normally ends every time: runs
# PROGRAM RUNS times and requires each run to exit 0 within 30 s with one
# "PE n ok" line per PE.  The caller's environment chooses the conditions
# (tests/mpi/CMakeLists.txt: UCX's CMA transport off).  Counts the runs
# Gasket's finalize watchdog ended (MPI_Finalize stalled on the MPICH
# family: mpi-bridge/environment.hpp, finalize_mpi); more than MAX_STALLED
# fails.
#
#   finalize_repeat.sh NP RUNS MAX_STALLED OSHRUN PROGRAM
#
# Prints "finalize_repeat: PASS ..." and exits 0, or "finalize_repeat: FAIL
# ..." (with the failed run's output) and exits 1.
np="$1"; runs="$2"; max_stalled="$3"; oshrun="$4"; program="$5"
out=$(mktemp "${TMPDIR:-/tmp}/finalize_repeat.XXXXXX") || exit 2
trap 'rm -f "$out"' EXIT INT TERM
i=1
stalled=0
while [ "$i" -le "$runs" ]; do
  timeout 30 "$oshrun" -np "$np" "$program" >"$out" 2>&1
  rc=$?
  ok=$(grep -c ' ok$' "$out")
  if [ "$rc" -ne 0 ] || [ "$ok" -ne "$np" ]; then
    cat "$out"
    if [ "$rc" -eq 124 ]; then why="still running after 30 s (killed)"; else why="exit status $rc"; fi
    echo "finalize_repeat: FAIL: run $i of $runs: $why, $ok of $np PEs ok"
    exit 1
  fi
  if grep -q 'MPI_Finalize has not returned' "$out"; then stalled=$((stalled + 1)); fi
  i=$((i + 1))
done
if [ "$stalled" -gt "$max_stalled" ]; then
  echo "finalize_repeat: FAIL: MPI_Finalize stalled in $stalled of $runs runs (at most $max_stalled allowed);" \
    "the finalize watchdog ended them"
  exit 1
fi
echo "finalize_repeat: PASS: $runs runs of $np PEs ended with status 0, each within 30 s" \
  "($stalled ended by the finalize watchdog)"
