#!/bin/sh
# check_ring.sh OSHRUN NP RING ROUNDS
# Every process must print its OK line (the expected values are computed by
# the program from the ring's arithmetic) and the job must exit 0.
set -u
oshrun=$1 np=$2 ring=$3 rounds=$4
out=$("$oshrun" -np "$np" "$ring" "$rounds" 2>&1)
status=$?
echo "$out"
oks=$(echo "$out" | grep -c '^ring: rank [0-9]* value [0-9]* expected [0-9]* OK$')
if [ "$status" -ne 0 ] || [ "$oks" -ne "$np" ] || echo "$out" | grep -q WRONG; then
  echo "check_ring: FAIL (exit status $status, $oks of $np OK lines)"
  exit 1
fi
echo "check_ring: PASS"
