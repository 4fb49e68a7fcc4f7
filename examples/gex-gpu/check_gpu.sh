#!/bin/sh
# check_gpu.sh OSHRUN NP GEX_GPU
# Exit 0 required.  With a CUDA device every process must print its OK
# line (it checked the bytes its neighbour put into its GPU segment);
# without one every process must say there is none (gex_MK_Create returned
# an error code instead of ending the job).
set -u
oshrun=$1 np=$2 program=$3
out=$("$oshrun" -np "$np" "$program" 2>&1)
status=$?
echo "$out"
oks=$(echo "$out" | grep -c '^gex-gpu: rank [0-9]*: [0-9]* bytes from rank [0-9]* in its GPU segment OK$')
none=$(echo "$out" | grep -c '^gex-gpu: rank [0-9]*: no CUDA device on every process; nothing to do$')
if [ "$status" -ne 0 ] || { [ "$oks" -ne "$np" ] && [ "$none" -ne "$np" ]; }; then
  echo "check_gpu: FAIL (exit status $status, $oks OK lines, $none no-device lines, of $np)"
  exit 1
fi
[ "$none" -eq "$np" ] && echo "check_gpu: PASS (no CUDA device here: the GPU part did not run)" && exit 0
echo "check_gpu: PASS"
