#!/bin/sh
# expect_failure.sh -- run a job that must fail, and check how it failed.
#
#   expect_failure.sh [--status N] [--max-seconds S] --regex ERE -- command [args...]
#
# Passes (exit 0, last line "expect_failure: PASS: ...") only if
#  - the command exits nonzero (exactly N with --status N),
#  - its combined stdout/stderr has a line matching the extended regex ERE,
#  - it does not print "NOT STOPPED" (the error_cases programs' marker for
#    "the library let me continue"),
#  - no sanitizer reported an error (a "SUMMARY: ...Sanitizer" line: in
#    GASKET_SANITIZE builds a report must fail the test even when the job
#    was meant to fail),
#  - and, with --max-seconds, it ends within S seconds.
# Otherwise prints "expect_failure: FAIL: <why>" and exits 1.  A job that
# exits 0 therefore always fails the test.  The command's output is echoed
# first, so the test log shows it.
status=""
max_seconds=""
regex=""
while [ $# -gt 0 ]; do
  case "$1" in
    --status) status="$2"; shift 2 ;;
    --max-seconds) max_seconds="$2"; shift 2 ;;
    --regex) regex="$2"; shift 2 ;;
    --) shift; break ;;
    *) echo "expect_failure: FAIL: unknown option $1" >&2; exit 2 ;;
  esac
done
if [ -z "$regex" ] || [ $# -eq 0 ]; then
  echo "usage: expect_failure.sh [--status N] [--max-seconds S] --regex ERE -- command [args...]" >&2
  exit 2
fi

out=$(mktemp "${TMPDIR:-/tmp}/expect_failure.XXXXXX") || exit 2
trap 'rm -f "$out"' EXIT INT TERM

start=$(date +%s)
"$@" >"$out" 2>&1
rc=$?
end=$(date +%s)
elapsed=$((end - start))

echo "---- output of: $*"
cat "$out"
echo "---- exit status $rc after ${elapsed}s"

fail() {
  echo "expect_failure: FAIL: $*"
  exit 1
}

if [ "$rc" -eq 0 ]; then
  fail "the job exited with status 0; it must fail"
fi
if [ -n "$status" ] && [ "$rc" -ne "$status" ]; then
  fail "the job exited with status $rc, expected $status"
fi
if grep -q -E "^SUMMARY: [A-Za-z]*Sanitizer" "$out"; then
  fail "a sanitizer reported an error (sanitizer builds: tests/asan/README.md)"
fi
if grep -q "NOT STOPPED" "$out"; then
  fail "the library let the program continue past the bad call"
fi
if [ -n "$max_seconds" ] && [ "$elapsed" -gt "$max_seconds" ]; then
  fail "the job took ${elapsed}s to end, more than ${max_seconds}s"
fi
line=$(grep -E -m 1 -e "$regex" "$out")
if [ -z "$line" ]; then
  fail "no line of the output matches: $regex"
fi
echo "expect_failure: PASS: exit status $rc; matched: $line"
exit 0
