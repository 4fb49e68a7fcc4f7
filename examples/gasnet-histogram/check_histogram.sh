#!/bin/sh
# check_histogram.sh OSHRUN NP HISTOGRAM KEYS BINS
# Runs `OSHRUN -np NP HISTOGRAM KEYS BINS` and fails unless it exits with 0,
# prints "total: T expected T OK" with T = KEYS * NP (every key lands in
# exactly one bin; computed here, independently of the program) and
# "all checks passed".
set -u
oshrun=$1 np=$2 histogram=$3 keys=$4 bins=$5
total=$((keys * np))
out=$("$oshrun" -np "$np" "$histogram" "$keys" "$bins" 2>&1)
status=$?
echo "$out"
if [ $status -ne 0 ]; then
  echo "check_histogram.sh: exit status $status"; exit 1
fi
if ! echo "$out" | grep -qx "total: $total expected $total OK"; then
  echo "check_histogram.sh: no line 'total: $total expected $total OK'"; exit 1
fi
if ! echo "$out" | grep -qx "all checks passed"; then
  echo "check_histogram.sh: no line 'all checks passed'"; exit 1
fi
echo "check_histogram.sh: $np nodes, $total keys: OK"
