#!/bin/sh
# check_count.sh OSHRUN NP LIBCOUNT HEAT
# Runs heat (64 cells, 10 steps) with the gasp-count tool attached through
# GASKET_GASP_TOOL, and fails unless every PE reports exactly the puts and
# barriers heat makes: per step one halo row to each neighbour PE and one
# barrier, then two puts of its rows to PE 0 and one barrier; no gets.
set -eu
oshrun=$1 np=$2 tool=$3 heat=$4
steps=10
out=$(GASKET_GASP_TOOL=$tool "$oshrun" -np "$np" "$heat" --n 64 --steps $steps)
echo "$out"
status=0
pe=0
while [ $pe -lt "$np" ]; do
  neighbours=2
  [ $pe -eq 0 ] && neighbours=$((neighbours - 1))
  [ $pe -eq $((np - 1)) ] && neighbours=$((neighbours - 1))
  want="gasp-count: PE $pe: puts $((steps * neighbours + 2)) gets 0 barriers $((steps + 1))"
  if ! echo "$out" | grep -q "^$want other [0-9]*\$"; then
    echo "PE $pe: expected '$want other N'"; status=1
  fi
  pe=$((pe + 1))
done
exit $status
