#!/bin/sh
# check_hello.sh OSHRUN NP HELLO
# Every process prints process 0's answer to it; process 0 counts NP hellos;
# the job exits 0.
set -u
oshrun=$1 np=$2 hello=$3
out=$("$oshrun" -np "$np" "$hello" 2>&1)
status=$?
echo "$out"
answers=$(echo "$out" | grep -c '^process [0-9]*: hello [0-9]*, you are number [0-9]*$')
if [ "$status" -ne 0 ] || [ "$answers" -ne "$np" ] || ! echo "$out" | grep -q "^process 0: $np hellos from $np processes OK$"; then
  echo "check_hello: FAIL (exit status $status, $answers of $np answers)"
  exit 1
fi
echo "check_hello: PASS"
