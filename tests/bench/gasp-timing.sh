#!/bin/bash
# gasp-timing.sh -- issue 16's timed check of GASP's cost: bench-rma,
# bench-amo and bench-am, node fast path on and off, in four configurations
# interleaved in every round (so a change of load hits them alike):
#   main -- the library of a build before GASP (BASE_LIB, via LD_LIBRARY_PATH;
#           the benchmark binaries are the same)
#   none -- this build, no tool
#   noop -- this build with GASKET_GASP_TOOL=libgasket-gasp-noop.so
#   prof -- this build with the bundled profiler (GASKET_PROFILE)
# Usage: tests/bench/gasp-timing.sh BUILD_DIR BASE_LIB_DIR OUT_DIR [ROUNDS=5]
# then: tests/bench/gasp-timing-table.py OUT_DIR   (docs/performance.md)
set -u
B=$1 BASE=$2 OUT=$3 ROUNDS=${4:-5}
mkdir -p "$OUT" "$OUT/profile"
for r in $(seq 1 "$ROUNDS"); do
  for fp in on off; do
    for cfg in main none noop prof; do
      case $cfg in
        main) env_cfg=(LD_LIBRARY_PATH="$BASE") ;;
        none) env_cfg=() ;;
        noop) env_cfg=(GASKET_GASP_TOOL="$B/lib/libgasket-gasp-noop.so") ;;
        prof) env_cfg=(GASKET_PROFILE="$OUT/profile/") ;;
      esac
      run() { env "${env_cfg[@]}" GASKET_NODE_FASTPATH=$fp "$B/bin/oshrun" -np 2 "$B/bin/$1" "${@:2}"; }
      run bench-rma --max-size 4K --reps 11 > "$OUT/rma.$fp.$cfg.$r.txt" 2>&1
      run bench-amo --iters 10000 --reps 11 > "$OUT/amo.$fp.$cfg.$r.txt" 2>&1
      run bench-am --reps 11 --iters 5000 --max-long 64K --stream 20000 > "$OUT/am.$fp.$cfg.$r.txt" 2>&1
    done
  done
  echo "round $r done $(date +%T), load $(cut -d' ' -f1-3 /proc/loadavg)"
done
