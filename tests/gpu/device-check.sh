#!/bin/bash
# tests/gpu/device-check.sh BUNDLE -- the one prepared run on the GPU machine
# the `device` tool lends (an NVIDIA H100/H200, its CUDA driver, no Open MPI
# of ours): BUNDLE is what tests/gpu/bundle.sh made (a relocatable Open MPI,
# libgasket and the test binaries).  It prints the device, gasket-info's
# memory kinds, then runs the memory-kind tests at 2 processes with the node
# fast path on and off, then bench-gex-mk (device-to-device put bandwidth
# beside cuMemcpyDtoD) both ways; every log goes to $OUT (or ./gpu-logs).
# Exit status: 0 when every run passed with the CUDA tests run (not skipped).
set -u
B=$(cd "${1:?usage: device-check.sh BUNDLE}" && pwd)
LOGS=${OUT:-$PWD/gpu-logs}
mkdir -p "$LOGS"
# shellcheck source=/dev/null
source "$B/env.sh"
status=0
{
  date -u
  if command -v nvidia-smi > /dev/null; then nvidia-smi -L; else echo "nvidia-smi: not found"; fi
  "$B/bin/gasket-info" 2>&1 | grep -A3 "Memory kinds"
} > "$LOGS/machine.txt" 2>&1
cat "$LOGS/machine.txt"
launch=(mpirun -np 2 --oversubscribe --bind-to none --mca pml ob1 --mca btl self,vader --mca osc rdma,sm)
for fp in on off; do
  log="$LOGS/gex-mk-$fp.txt"
  GASKET_NODE_FASTPATH=$fp timeout 100 "${launch[@]}" -x GASKET_NODE_FASTPATH \
    "$B/bin/gasket_gex_test" --gtest_filter='GexMemoryKinds.*' > "$log" 2>&1
  rc=$?
  echo "== memory kinds, fast path $fp: exit $rc"
  grep -E "^\[ +(OK|FAILED|SKIPPED|PASSED) +\]|Skipped|CUDA memory kind|Failure" "$log" | sed 's/\x1b\[[0-9;]*m//g'
  [ $rc -eq 0 ] || status=1
  grep -q "SKIPPED" "$log" && { echo "the CUDA test was skipped: no GPU proof"; status=1; }
done
# The README's example: every process must print its OK line.
for fp in on off; do
  log="$LOGS/gex-gpu-$fp.txt"
  GASKET_NODE_FASTPATH=$fp timeout 30 "${launch[@]}" -x GASKET_NODE_FASTPATH "$B/bin/gex-gpu" > "$log" 2>&1
  rc=$?
  oks=$(grep -c 'in its GPU segment OK$' "$log")
  echo "== examples/gex-gpu, fast path $fp: exit $rc, $oks of 2 OK lines"
  [ $rc -eq 0 ] && [ "$oks" -eq 2 ] || { cat "$log"; status=1; }
done
# The bandwidth table (docs/performance.md): puts between device segments
# of the two processes beside cuMemcpyDtoD in one, fast path on (CUDA IPC)
# and off (staged through the owner).
for fp in on off; do
  log="$LOGS/bench-gex-mk-$fp.txt"
  GASKET_NODE_FASTPATH=$fp GASNET_MAX_SEGSIZE=1G timeout 90 "${launch[@]}" -x GASKET_NODE_FASTPATH \
    -x GASNET_MAX_SEGSIZE "$B/bin/bench-gex-mk" --max-size "$([ $fp = on ] && echo 64M || echo 8M)" > "$log" 2>&1
  rc=$?
  echo "== bench-gex-mk, fast path $fp: exit $rc"
  cat "$log"
  [ $rc -eq 0 ] || status=1
  grep -q "nothing measured" "$log" && status=1
done
echo "device-check: status $status (logs in $LOGS)"
exit $status
