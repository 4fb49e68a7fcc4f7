#!/bin/sh
# check_install.sh BUILD_DIR SOURCE_DIR
# Installs the build into a fresh prefix, then builds the consumer program
# (an OpenSHMEM ring and a GASNet one) three ways a user would -- find_package(Gasket), pkg-config, the installed
# oshcc -- and runs each under the installed oshrun on 2 PEs; then a profiling tool (tests/surface) built
# against the installed pshmem.h; the bundled profiler through the installed oshrun (--profile and
# GASKET_PROFILE alone) and gasket-prof; then the installed library's exports against the installed headers
# (tests/surface/check_exports.py).
set -eu
build=$1 src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix="$work/prefix"
cmake --install "$build" --prefix "$prefix" > /dev/null

echo "== find_package(Gasket)"
cmake -S "$src/consumer" -B "$work/cmake" -DCMAKE_PREFIX_PATH="$prefix" > /dev/null
cmake --build "$work/cmake" > /dev/null
"$prefix/bin/oshrun" -np 2 "$work/cmake/ring"
"$prefix/bin/oshrun" -np 2 "$work/cmake/am_ring"

echo "== pkg-config gasket"
PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
export PKG_CONFIG_PATH
# shellcheck disable=SC2046
cc -std=c11 $(pkg-config --cflags gasket) "$src/consumer/ring.c" $(pkg-config --libs gasket) -o "$work/ring-pc"
"$prefix/bin/oshrun" -np 2 "$work/ring-pc"

echo "== installed oshcc"
"$prefix/bin/oshcc" -std=c11 "$src/consumer/ring.c" -o "$work/ring-oshcc"
"$prefix/bin/oshrun" -np 2 "$work/ring-oshcc"
"$prefix/bin/oshcc" -std=c11 "$src/consumer/am_ring.c" -o "$work/am-ring-oshcc"
"$prefix/bin/oshrun" -np 2 "$work/am-ring-oshcc"

echo "== installed pshmem.h: a profiling tool around the installed library"
test -f "$prefix/include/pshmem.h"
"$prefix/bin/oshcc" -std=c11 "$src/../surface/profiling_app.c" "$src/../surface/profiling_tool.c" -o "$work/prof"
"$prefix/bin/oshrun" -np 2 "$work/prof"
echo "== installed bundled profiler: oshrun --profile, GASKET_PROFILE alone, gasket-prof"
"$prefix/bin/oshrun" --profile="$work/p1" -np 2 "$work/ring-oshcc"
python3 -c "import json, sys; s = json.load(open(sys.argv[1])); sys.exit(0 if s['n_pes'] == 2 and s['operations'] else s)" \
  "$work/p1.summary.json"
GASKET_PROFILE="$work/p2" "$prefix/bin/oshrun" -np 2 "$work/ring-oshcc"
python3 -c "import json, sys; t = json.load(open(sys.argv[1])); sys.exit(0 if t['traceEvents'] else 'empty trace')" \
  "$work/p2.trace.json"
if /usr/bin/python3 -c "import matplotlib" 2>/dev/null; then
  "$prefix/bin/gasket-prof" "$work/p1.summary.json"
  test -s "$work/p1.matrix.png"
else
  echo "SKIP: gasket-prof's PNGs (no matplotlib for /usr/bin/python3)"
fi
echo "== installed libgasket.so exports only names the installed headers declare"
python3 "$src/../surface/check_exports.py" --library "$prefix/lib/libgasket.so" --cc cc \
  --include "$prefix/include" --workdir "$work/exports"
echo "install check passed"
