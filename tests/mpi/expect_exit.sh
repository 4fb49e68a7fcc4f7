#!/bin/sh
# expect_exit.sh -- run a job and check how it ended: its exit status
# (zero allowed), the time it took, and that it left nothing behind.
#
#   expect_exit.sh --status N --max-seconds S [--regex ERE] [--hydra-regex ERE]
#                  [--hydra-status M] -- command [args...]
#
# Passes (exit 0, last line "expect_exit: PASS: ...") only if
#  - the command ends within S seconds (it runs under timeout(1), killed at
#    S + 30 s so a hang fails instead of stalling the suite),
#  - it exits with exactly status N (for N = 128 + S under Hydra, MPICH's
#    launcher, which reports a rank killed by signal S as S: S too; under
#    Hydra, with --hydra-status, M (or M - 128) is accepted too, for what
#    Hydra reports racily; the test's registration says why),
#  - with --regex, a line of its combined stdout/stderr matches ERE (under
#    Hydra, the --hydra-regex ERE instead when given: for what only the
#    launcher can report, or what Hydra prevents; the test's registration
#    says why),
#  - it does not print "NOT STOPPED" (the test programs' marker for "the
#    library let me continue"),
#  - 2 s after it ended no process runs the program (the last argument
#    that is an executable file), and
#  - no file appeared in /dev/shm during the run that is still there 5 s
#    later and that no live process maps or holds open (a leaked segment).
# Otherwise prints "expect_exit: FAIL: <why>" and exits 1.  The command's
# output is echoed first, so the test log shows it.
status=""
max_seconds=""
regex=""
hydra_regex=""
hydra_status=""
while [ $# -gt 0 ]; do
  case "$1" in
    --status) status="$2"; shift 2 ;;
    --max-seconds) max_seconds="$2"; shift 2 ;;
    --regex) regex="$2"; shift 2 ;;
    --hydra-regex) hydra_regex="$2"; shift 2 ;;
    --hydra-status) hydra_status="$2"; shift 2 ;;
    --) shift; break ;;
    *) echo "expect_exit: FAIL: unknown option $1" >&2; exit 2 ;;
  esac
done
if [ -z "$status" ] || [ -z "$max_seconds" ] || [ $# -eq 0 ]; then
  echo "usage: expect_exit.sh --status N --max-seconds S [--regex ERE] [--hydra-regex ERE] [--hydra-status M] -- command [args...]" >&2
  exit 2
fi

# The program the launcher starts: the last argument that is an executable
# file (the launcher itself comes first).
program=""
for a in "$@"; do
  if [ -f "$a" ] && [ -x "$a" ]; then program="$a"; fi
done

out=$(mktemp "${TMPDIR:-/tmp}/expect_exit.XXXXXX") || exit 2
before=$(mktemp "${TMPDIR:-/tmp}/expect_exit.XXXXXX") || exit 2
trap 'rm -f "$out" "$before"' EXIT INT TERM
ls -1 /dev/shm >"$before" 2>/dev/null

start=$(date +%s)
timeout -k 5 $((max_seconds + 30)) "$@" >"$out" 2>&1
rc=$?
end=$(date +%s)
elapsed=$((end - start))

echo "---- output of: $*"
cat "$out"
echo "---- exit status $rc after ${elapsed}s"

fail() {
  echo "expect_exit: FAIL: $*"
  exit 1
}

if [ "$elapsed" -gt "$max_seconds" ]; then
  fail "the job took ${elapsed}s to end, more than ${max_seconds}s"
fi
# A rank killed by signal S: Open MPI's mpiexec (and the shell) end with
# 128 + S, which is what the tests state; Hydra (the MPICH family's
# launcher) ends with S itself, which counts as the same status.
hydra() {
  launcher=$("$1" --showme true 2>/dev/null | awk '{ print $1; exit }')
  [ -n "$launcher" ] && "$launcher" --version 2>/dev/null | grep -q HYDRA
}
if [ "$rc" -ne "$status" ] && [ "$status" -gt 128 ] && [ "$rc" -eq $((status - 128)) ] && hydra "$1"; then
  echo "expect_exit: Hydra reports signal $rc as status $rc: the same as $status"
  rc=$status
fi
if [ -n "$hydra_status" ] && [ "$rc" -ne "$status" ] && hydra "$1" &&
  { [ "$rc" -eq "$hydra_status" ] || { [ "$hydra_status" -gt 128 ] && [ "$rc" -eq $((hydra_status - 128)) ]; }; }; then
  echo "expect_exit: under Hydra status $rc is accepted too (--hydra-status $hydra_status)"
  rc=$status
fi
if [ "$rc" -ne "$status" ]; then
  fail "the job exited with status $rc, expected $status"
fi
if grep -q "NOT STOPPED" "$out"; then
  fail "the library let the program continue: $(grep -m 1 "NOT STOPPED" "$out")"
fi
if [ -n "$hydra_regex" ] && hydra "$1"; then
  echo "expect_exit: under Hydra the output must match: $hydra_regex"
  regex=$hydra_regex
fi
line=""
if [ -n "$regex" ]; then
  line=$(grep -E -m 1 -e "$regex" "$out")
  [ -n "$line" ] || fail "no line of the output matches: $regex"
fi
sleep 2
if [ -n "$program" ]; then
  exe=$(readlink -f "$program")
  left=""
  for p in /proc/[0-9]*; do
    [ "$(readlink "$p/exe" 2>/dev/null)" = "$exe" ] && left="$left ${p#/proc/}"
  done
  [ -z "$left" ] || fail "processes of $program are still running:$left"
fi
# A new /dev/shm file that nobody maps or holds open, still there 5 s
# later, is a leak (another job's live segments are mapped by its
# processes; one that just ended is cleaned up by its launcher meanwhile).
unused() {
  ! grep -q -F "/dev/shm/$1" /proc/[0-9]*/maps 2>/dev/null &&
    ! ls -l /proc/[0-9]*/fd 2>/dev/null | grep -q -F "/dev/shm/$1"
}
suspects=""
for f in $(ls -1 /dev/shm 2>/dev/null | grep -v -x -F -f "$before"); do
  [ -e "/dev/shm/$f" ] && unused "$f" && suspects="$suspects $f"
done
if [ -n "$suspects" ]; then
  sleep 5
  for f in $suspects; do
    [ -e "/dev/shm/$f" ] && unused "$f" && fail "the job left /dev/shm/$f behind"
  done
fi
echo "expect_exit: PASS: exit status $rc after ${elapsed}s; matched: $line"
exit 0
