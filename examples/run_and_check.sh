#!/bin/sh
# run_and_check.sh NAME EXPECTED_LINE OSHRUN NP PROGRAM [ARGS...]
# Runs `OSHRUN -np NP PROGRAM ARGS` and fails unless it exits with 0 and
# prints both EXPECTED_LINE and "all checks passed" as whole lines.  NAME
# labels the messages.  The examples' check scripts compute EXPECTED_LINE
# themselves, independently of the program, and call this.
set -u
name=$1 expected=$2 oshrun=$3 np=$4
shift 4
out=$("$oshrun" -np "$np" "$@" 2>&1)
status=$?
echo "$out"
if [ $status -ne 0 ]; then
  echo "$name: exit status $status"; exit 1
fi
for line in "$expected" "all checks passed"; do
  if ! echo "$out" | grep -qxF "$line"; then
    echo "$name: no line '$line'"; exit 1
  fi
done
echo "$name: $np nodes: OK"
