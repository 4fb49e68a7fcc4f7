#!/bin/sh
# check_histogram.sh OSHRUN NP HISTOGRAM KEYS BINS
# The histogram must hold T = KEYS * NP keys (every key lands in exactly one
# bin; computed here, independently of the program).
set -u
oshrun=$1 np=$2 histogram=$3 keys=$4 bins=$5
total=$((keys * np))
exec sh "$(dirname "$0")/../run_and_check.sh" check_histogram.sh "total: $total expected $total OK" \
  "$oshrun" "$np" "$histogram" "$keys" "$bins"
