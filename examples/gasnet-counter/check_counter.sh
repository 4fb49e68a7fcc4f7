#!/bin/sh
# check_counter.sh OSHRUN NP COUNTER INCREMENTS
# Runs `OSHRUN -np NP COUNTER INCREMENTS` and fails unless it exits with 0,
# prints "counter: T expected T OK" with T = INCREMENTS * NP*(NP+1)/2 (node n
# adds n+1 each time; computed here, independently of the program) and
# "all checks passed".
set -u
oshrun=$1 np=$2 counter=$3 increments=$4
total=$((increments * np * (np + 1) / 2))
out=$("$oshrun" -np "$np" "$counter" "$increments" 2>&1)
status=$?
echo "$out"
if [ $status -ne 0 ]; then
  echo "check_counter.sh: exit status $status"; exit 1
fi
if ! echo "$out" | grep -qx "counter: $total expected $total OK"; then
  echo "check_counter.sh: no line 'counter: $total expected $total OK'"; exit 1
fi
if ! echo "$out" | grep -qx "all checks passed"; then
  echo "check_counter.sh: no line 'all checks passed'"; exit 1
fi
echo "check_counter.sh: $np nodes, counter $total: OK"
