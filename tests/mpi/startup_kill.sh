#!/bin/sh
# startup_kill.sh -- a job killed at any point of start-up leaves nothing in
# /dev/shm.
#
#   startup_kill.sh NP OSHRUN PROGRAM
#
# PROGRAM is startup_kill (tests/mpi/startup_kill.c).  A first run kills
# nobody and says how many points start-up has (N); then for k = 1..N one PE
# raises SIGKILL right after point k.  Each killed job must end (nonzero
# status, within 60 s), and /dev/shm must then hold no entry of that job:
# none whose name has the job's Open MPI job id (hex) or the pid of one of
# its processes as a dot-separated field (Open MPI's vader_segment.* and
# osc_sm.* files, Gasket's former gasket.<pid>.<rank>).  Entries of other
# jobs running at the same time are not counted.  Prints
# "startup_kill: PASS ..." and exits 0, or "startup_kill: FAIL ..." and 1.
np="$1"; oshrun="$2"; program="$3"
work=$(mktemp -d "${TMPDIR:-/tmp}/startup_kill.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT INT TERM

leftovers() {  # the /dev/shm entries naming a job id or pid listed in $1/*
  ids=$(cat "$1"/[0-9]* 2>/dev/null | tr ' ' '\n' | grep -v '^0$' | sort -u)
  [ -n "$ids" ] || return 0
  ls -A /dev/shm 2>/dev/null | while read -r entry; do
    for id in $ids; do
      case ".$entry." in *".$id."*) echo "$entry"; break ;; esac
    done
  done
}

mkdir "$work/dry"
STARTUP_KILL_DIR="$work/dry" STARTUP_KILL_AT=0 timeout 60 "$oshrun" -np "$np" "$program" >"$work/dry.out" 2>&1
rc=$?
cat "$work/dry.out"
n=$(sed -n 's/^startup_kill: \([0-9][0-9]*\) points$/\1/p' "$work/dry.out")
if [ $rc -ne 0 ] || [ -z "$n" ]; then
  echo "startup_kill: FAIL: the run without a kill failed (status $rc) or did not count its points"
  exit 1
fi
left=$(leftovers "$work/dry")
if [ -n "$left" ]; then
  echo "startup_kill: FAIL: a clean run left in /dev/shm: $left"
  exit 1
fi

k=1
while [ "$k" -le "$n" ]; do
  mkdir "$work/$k"
  start=$(date +%s)
  STARTUP_KILL_DIR="$work/$k" STARTUP_KILL_AT=$k timeout 60 "$oshrun" -np "$np" "$program" >"$work/$k.out" 2>&1
  rc=$?
  elapsed=$(( $(date +%s) - start ))
  what=$(grep -m1 '^startup_kill: rank' "$work/$k.out")
  echo "point $k: status $rc after ${elapsed}s: ${what:-no kill message}"
  if [ $rc -eq 0 ] || [ $rc -eq 124 ] || [ -z "$what" ]; then
    cat "$work/$k.out"
    echo "startup_kill: FAIL: point $k: the job must be killed and end (status $rc)"
    exit 1
  fi
  left=$(leftovers "$work/$k")
  if [ -n "$left" ]; then
    echo "startup_kill: FAIL: point $k: left in /dev/shm:" $left
    exit 1
  fi
  k=$((k + 1))
done
echo "startup_kill: PASS: $n points at $np PEs, nothing left in /dev/shm"
