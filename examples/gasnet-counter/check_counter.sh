#!/bin/sh
# check_counter.sh OSHRUN NP COUNTER INCREMENTS
# The counter must end at T = INCREMENTS * NP*(NP+1)/2 (node n adds n+1 each
# time; computed here, independently of the program).
set -u
oshrun=$1 np=$2 counter=$3 increments=$4
total=$((increments * np * (np + 1) / 2))
exec sh "$(dirname "$0")/../run_and_check.sh" check_counter.sh "counter: $total expected $total OK" \
  "$oshrun" "$np" "$counter" "$increments"
