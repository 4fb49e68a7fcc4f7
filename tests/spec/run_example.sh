#!/bin/sh
# run_example.sh OSHRUN NP PROGRAM EXPECTED SORT [STATUS]
#
# Runs `OSHRUN -np NP PROGRAM` (one of the spec's example programs) in the
# current directory and compares its standard output with the file EXPECTED.
#   SORT    "sort": sort both outputs (LC_ALL=C) before comparing, for
#           examples whose lines come from several PEs in no fixed order
#           (with Open MPI, the output of each rank's own file);
#           "nosort": compare as is.
#   STATUS  the exit status the launcher must return (default 0).
# Fails (exit 1) with the launcher's stderr and a unified diff when the exit
# status or the output differ.
set -u
if [ $# -lt 5 ] || [ $# -gt 6 ]; then
  echo "usage: $0 OSHRUN NP PROGRAM EXPECTED sort|nosort [STATUS]" >&2
  exit 2
fi
oshrun=$1 np=$2 program=$3 expected=$4 sortflag=$5 want_status=${6:-0}
case "$sortflag" in
  sort|nosort) ;;
  *) echo "$0: SORT must be sort or nosort, not '$sortflag'" >&2; exit 2 ;;
esac
[ -r "$expected" ] || { echo "$0: cannot read expected output $expected" >&2; exit 2; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/gasket-spec.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM

# In sort mode each PE's lines are compared whole.  Through one pipe, the
# launcher may forward part of one PE's line, then another PE's output (seen
# in CI with Open MPI: "... 11 dest on PE 3 is ..."), so each rank's output
# is written to its own file and those are compared: Open MPI's
# --output-filename, MPICH Hydra's -outfile-pattern.  The launcher is the
# one oshrun runs (oshrun --showme), not whatever mpiexec is on PATH.
per_rank=
if [ "$sortflag" = sort ]; then
  mkdir "$tmp/ranks"
  launcher=$("$oshrun" --showme | cut -d' ' -f1)
  version=$("$launcher" --version 2>/dev/null)
  case "$version" in
    *"Open MPI"*|*OpenRTE*) per_rank="--output-filename $tmp/ranks" ;;
    *HYDRA*) per_rank="-outfile-pattern $tmp/ranks/rank.%r.stdout" ;;
  esac
fi
echo "running: $oshrun -np $np $per_rank $program  (GASKET_NODE_FASTPATH=${GASKET_NODE_FASTPATH:-unset}, cwd $(pwd))"
# shellcheck disable=SC2086 # per_rank is empty or two words
"$oshrun" -np "$np" $per_rank "$program" >"$tmp/stdout" 2>"$tmp/stderr"
status=$?

fail=0
if [ "$status" -ne "$want_status" ]; then
  echo "FAIL: exit status $status, expected $want_status"
  fail=1
fi
if [ -n "$per_rank" ]; then
  find "$tmp/ranks" -type f -name '*stdout' -exec cat {} + | LC_ALL=C sort >"$tmp/got"
  LC_ALL=C sort "$expected" >"$tmp/want"
elif [ "$sortflag" = sort ]; then
  LC_ALL=C sort "$tmp/stdout" >"$tmp/got"
  LC_ALL=C sort "$expected" >"$tmp/want"
else
  cp "$tmp/stdout" "$tmp/got"
  cp "$expected" "$tmp/want"
fi
if ! diff -u "$tmp/want" "$tmp/got" >"$tmp/diff"; then
  echo "FAIL: output differs from $expected ($sortflag) (--- expected, +++ got):"
  cat "$tmp/diff"
  fail=1
fi
if [ "$fail" -ne 0 ]; then
  echo "---- stdout ----"
  cat "$tmp/stdout"
  echo "---- stderr ----"
  cat "$tmp/stderr"
  exit 1
fi
echo "PASS: exit status $status, output matches $expected"
exit 0
