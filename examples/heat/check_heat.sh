#!/bin/sh
# check_heat.sh OSHRUN HEAT [heat args...]
# Runs heat on 1 PE, then on 2 and 4 PEs with the node fast path on and off,
# and fails unless every run prints the 1-PE residual and checksum exactly.
set -eu
oshrun=$1 heat=$2
shift 2
reference=$("$oshrun" -np 1 "$heat" "$@" | grep -E '^(residual|checksum) ')
[ -n "$reference" ] || { echo "heat printed no residual/checksum on 1 PE"; exit 1; }
echo "1 PE:"; echo "$reference"
status=0
for np in 2 4; do
  for fastpath in on off; do
    got=$(GASKET_NODE_FASTPATH=$fastpath "$oshrun" -np $np "$heat" "$@" | grep -E '^(residual|checksum) ') || true
    if [ "$got" = "$reference" ]; then
      echo "$np PEs, fast path $fastpath: identical"
    else
      echo "$np PEs, fast path $fastpath: DIFFERENT"; echo "$got"; status=1
    fi
  done
done
exit $status
