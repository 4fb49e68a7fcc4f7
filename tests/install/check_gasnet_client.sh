#!/bin/sh
# check_gasnet_client.sh BUILD_DIR SOURCE_DIR
# GASNet client build systems against the INSTALLED tree (docs/gasnet-build.md):
# installs the build into a fresh prefix, then builds gasnet_client.c (+ its C++ half) three ways --
# a Makefile including include/mpi-conduit/mpi-seq.mak, `pkg-config gasnet-mpi-par`, gasnet-cc/gasnet-c++
# with -DGASNET_PARSYNC -- and runs each with the installed gasnetrun_mpi on 2 and 4 nodes (and one of them
# with the node fast path off), every node's result line checked.  Then gasnetrun_mpi's options: -E
# (a variable outside the prefixes oshrun forwards), -N with -n, -c, -t (prints, runs nothing), arguments
# after the program passed unchanged, and bad options (each: exit status 2 and a line naming the value);
# the .pc files' GASNET_* variables against the fragments'; both still right after the tree is moved; the
# build tree's gasnetrun_mpi.
set -eu
build=$1 src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix="$work/prefix"
cmake --install "$build" --prefix "$prefix" > /dev/null
run="$prefix/bin/gasnetrun_mpi"
PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
export PKG_CONFIG_PATH
# Not SHMEM_*, SMA_*, GASNET_* or GASKET_*: only -E sends it.  The quotes
# are part of the value (the printed command must quote them).
# shellcheck disable=SC2089,SC2090
GEXB_FORWARD="two words, 'quoted'"
# shellcheck disable=SC2090
export GEXB_FORWARD

wrong() {
  echo "WRONG: $*"
  exit 1
}

# run_client NP PROGRAM MODE "GASNETRUN OPTIONS" [PROGRAM ARGS...]
# Runs PROGRAM MODE ARGS... with gasnetrun_mpi OPTIONS -n NP; every node
# 0..NP-1 must print its ok line with MODE and the arguments unchanged.
run_client() {
  np=$1 prog=$2 mode=$3 opts=$4
  shift 4
  args=""
  for a in "$@"; do args="${args}[$a]"; done
  # shellcheck disable=SC2086
  if ! timeout 120 "$run" $opts -n "$np" "$prog" "$mode" "$@" > "$work/out" 2>&1; then
    cat "$work/out"
    wrong "gasnetrun_mpi $opts -n $np $prog $mode $*: exit status not 0"
  fi
  i=0
  while [ "$i" -lt "$np" ]; do
    grep -qxF "gasnet_client: node $i of $np ok mode=$mode args=$args" "$work/out" || {
      cat "$work/out"
      wrong "gasnetrun_mpi $opts -n $np $prog: no ok line from node $i of $np (mode $mode, args $args)"
    }
    i=$((i + 1))
  done
  echo "ok: gasnetrun_mpi $opts -n $np $(basename "$prog") $mode"
}

echo "== (1) a Makefile including mpi-seq.mak"
mkdir "$work/make"
make -s -C "$work/make" -f "$src/gasnet_client.mk" GASNET_MAK="$prefix/include/mpi-conduit/mpi-seq.mak" SRCDIR="$src"
seq_prog="$work/make/gasnet_client"
run_client 2 "$seq_prog" SEQ ""
run_client 4 "$seq_prog" SEQ "" -n 3 -E X -v -- "a b"

echo "== (2) pkg-config gasnet-mpi-par"
# shellcheck disable=SC2046
c++ $(pkg-config --cflags gasnet-mpi-par) -c "$src/gasnet_client_cxx.cpp" -o "$work/par_cxx.o"
# shellcheck disable=SC2046
cc $(pkg-config --cflags gasnet-mpi-par) "$src/gasnet_client.c" "$work/par_cxx.o" \
  $(pkg-config --libs gasnet-mpi-par) -o "$work/par_client"
run_client 2 "$work/par_client" PAR ""
run_client 4 "$work/par_client" PAR ""
GASKET_NODE_FASTPATH=off # oshrun forwards GASKET_*
export GASKET_NODE_FASTPATH
run_client 2 "$work/par_client" PAR ""
run_client 4 "$work/par_client" PAR ""
unset GASKET_NODE_FASTPATH

echo "== (3) gasnet-cc and gasnet-c++ (-DGASNET_PARSYNC)"
"$prefix/bin/gasnet-c++" -DGASNET_PARSYNC -c "$src/gasnet_client_cxx.cpp" -o "$work/parsync_cxx.o"
"$prefix/bin/gasnet-cc" -DGASNET_PARSYNC "$src/gasnet_client.c" "$work/parsync_cxx.o" -o "$work/parsync_client"
run_client 2 "$work/parsync_client" PARSYNC ""
run_client 4 "$work/parsync_client" PARSYNC ""

echo "== -E forwards a variable's value (every node checks it)"
run_client 2 "$seq_prog" SEQ "-E GEXB_FORWARD" "GEXB_FORWARD=$GEXB_FORWARD"
run_client 4 "$seq_prog" SEQ "-E GEXB_UNSET,GEXB_FORWARD" "GEXB_FORWARD=$GEXB_FORWARD"
# The command shows how: `env NAME=VALUE` before the program, quoted.
"$run" -t -E GEXB_FORWARD -n 2 "$seq_prog" SEQ > "$work/cmd"
grep -qF " env 'GEXB_FORWARD=two words, '\\''quoted'\\''' $seq_prog SEQ" "$work/cmd" ||
  wrong "gasnetrun_mpi -t -E GEXB_FORWARD: $(cat "$work/cmd")"
"$run" -t -n 2 "$seq_prog" SEQ > "$work/cmd"
! grep -q GEXB_FORWARD "$work/cmd" || wrong "gasnetrun_mpi -t without -E forwards GEXB_FORWARD: $(cat "$work/cmd")"

echo "== -N with -n, -c"
run_client 2 "$seq_prog" SEQ "-N 1"
run_client 2 "$seq_prog" SEQ "-c 1"
"$run" -t -N 2 -n 4 "$seq_prog" > "$work/cmd"
grep -qE -- "(--map-by ppr:2:node|-ppn 2) " "$work/cmd" || wrong "gasnetrun_mpi -t -N 2 -n 4: $(cat "$work/cmd")"
"$run" -t -N 2 -n 3 -c 2 "$seq_prog" > "$work/cmd"
grep -qE -- "(--map-by ppr:2:node:PE=2|-ppn 2 -bind-to core:2) " "$work/cmd" ||
  wrong "gasnetrun_mpi -t -N 2 -n 3 -c 2: $(cat "$work/cmd")"

echo "== -t prints the command and runs nothing"
"$run" -t -n 2 /bin/sh -c "touch $work/ran" > "$work/cmd"
[ ! -e "$work/ran" ] || wrong "gasnetrun_mpi -t ran the program"
grep -qE -- "-n 2 /bin/sh -c 'touch " "$work/cmd" || wrong "gasnetrun_mpi -t printed: $(cat "$work/cmd")"
first=$(cut -d' ' -f1 "$work/cmd")
[ -x "$first" ] || wrong "gasnetrun_mpi -t: the command's first word '$first' is not the launcher"

echo "== bad options: a clear error, status 2, nothing run"
# expect_error PATTERN ARGS...: the first line must be gasnetrun_mpi's and contain PATTERN.
expect_error() {
  pattern=$1
  shift
  status=0
  timeout 20 "$run" "$@" > "$work/err" 2>&1 || status=$?
  if [ "$status" != 2 ] || ! head -n 1 "$work/err" | grep -q "^gasnetrun_mpi: " ||
    ! head -n 1 "$work/err" | grep -qF -- "$pattern"; then
    cat "$work/err"
    wrong "gasnetrun_mpi $*: status $status, expected 2 and a line with '$pattern'"
  fi
  echo "ok: gasnetrun_mpi $* -> $(head -n 1 "$work/err")"
}
expect_error "-n needs a positive integer (the number of processes), not '0'" -n 0 "$seq_prog"
expect_error "not 'abc'" -n abc "$seq_prog"
expect_error "not '-3'" -n -3 "$seq_prog"
expect_error "-n needs a value" -n
expect_error "unknown option '-x'" -x -n 2 "$seq_prog"
expect_error "unknown option '--bogus'" --bogus -n 2 "$seq_prog"
expect_error "unknown option '-np'" -np 2 "$seq_prog"
expect_error "no program to run" -n 2
expect_error "-n N (the number of processes) is required" "$seq_prog"
expect_error "program '$work/missing' is not an executable file" -n 2 "$work/missing"
expect_error "program 'gasket-no-such-program' is not in PATH" -n 2 gasket-no-such-program
expect_error "-N needs a positive integer (the number of hosts), not '0'" -N 0 -n 2 "$seq_prog"
expect_error "-N 3: more hosts than the 2 processes" -N 3 -n 2 "$seq_prog"
expect_error "-c needs a positive integer (CPUs per process), not 'x'" -c x -n 2 "$seq_prog"
expect_error "-E: 'BAD-NAME' is not a variable name" -E BAD-NAME -n 2 "$seq_prog"
expect_error "-spawner=ssh" -spawner=ssh -n 2 "$seq_prog"

echo "== the .pc files carry the fragments' GASNET_* variables"
for mode in seq par parsync; do
  MODE=$(echo "$mode" | tr '[:lower:]' '[:upper:]')
  mak="$prefix/include/mpi-conduit/mpi-$mode.mak"
  for var in GASNET_CC GASNET_CXX GASNET_LD GASNET_DEFINES GASNET_CFLAGS GASNET_CXXFLAGS GASNET_LDFLAGS \
    GASNET_LD_REQUIRES_MPI GASNET_SPAWNER_DEFAULT; do
    from_make=$(make -s -f "$src/gasnet_client.mk" GASNET_MAK="$mak" "print-$var")
    from_pc=$(pkg-config --variable="$var" "gasnet-mpi-$mode")
    # Compared word by word (the fragment's values may end in spaces).
    # shellcheck disable=SC2086,SC2116
    [ "$(echo $from_make)" = "$(echo $from_pc)" ] ||
      wrong "$var: mpi-$mode.mak has '$from_make', gasnet-mpi-$mode.pc '$from_pc'"
  done
  pkg-config --cflags "gasnet-mpi-$mode" | grep -qw -- "-DGASNET_$MODE" || wrong "gasnet-mpi-$mode.pc: no -DGASNET_$MODE"
  make -s -f "$src/gasnet_client.mk" GASNET_MAK="$mak" print-GASNET_CPPFLAGS | grep -qw -- "-DGASNET_$MODE" ||
    wrong "mpi-$mode.mak: no -DGASNET_$MODE"
done
echo "ok: GASNET_CC, _CXX, _LD, _DEFINES, _CFLAGS, _CXXFLAGS, _LDFLAGS, _LD_REQUIRES_MPI, _SPAWNER_DEFAULT agree"

echo "== the build tree's gasnetrun_mpi"
run="$build/bin/gasnetrun_mpi"
run_client 2 "$work/par_client" PAR ""

echo "== a moved installation: the fragment and the .pc follow it"
mv "$prefix" "$work/moved"
prefix="$work/moved"
PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
libs=$(make -s -f "$src/gasnet_client.mk" GASNET_MAK="$prefix/include/mpi-conduit/mpi-par.mak" print-GASNET_LIBS)
case "$libs" in
  "-L$prefix/lib -Wl,-rpath,$prefix/lib -lgasket -lpthread"*) ;;
  *) wrong "moved mpi-par.mak: GASNET_LIBS is '$libs'" ;;
esac
dir=$(pkg-config --variable=libdir gasnet-mpi-par)
[ "$(cd "$dir" && pwd)" = "$prefix/lib" ] || wrong "moved gasnet-mpi-par.pc: libdir is '$dir'"
test -f "$prefix/lib/libgasket.so" || wrong "no libgasket.so in the moved tree"
"$prefix/bin/gasnetrun_mpi" -t -n 2 "$seq_prog" | grep -q -- "-n 2 $seq_prog" || wrong "moved gasnetrun_mpi -t"
echo "ok: GASNET_LIBS $libs"

echo "gasnet client check passed"
