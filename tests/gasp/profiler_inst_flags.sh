#!/bin/sh
# profiler_inst_flags.sh OSHCC OSHRUN PYTHON CHECK SOURCE LIST NP
# GASP §3.1's wrapper flags: oshcc accepts --inst, --inst-local and
# --inst-functions (compiling and linking as without them), refuses
# --inst-only without a readable FILE, and --inst-only LIST links LIST in as
# the program's event filter: the program, run under oshrun --profile with
# no GASKET_INST_ONLY in the environment, is measured for LIST's events only
# (profiler_check.py inst-only, on every PE).
set -eu
oshcc=$1 oshrun=$2 python=$3 check=$4 source=$5 list=$6 np=$7
tmp=$(mktemp -d "${TMPDIR:-/tmp}/inst-flags.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
unset GASKET_INST_ONLY || true
"$oshcc" --inst --inst-local --inst-functions -c "$source" -o "$tmp/known.o"
"$oshcc" --inst "$tmp/known.o" -o "$tmp/plain"
if "$oshcc" --inst-only "$tmp/missing.txt" "$tmp/known.o" -o "$tmp/bad" 2>"$tmp/err"; then
  echo "FAIL: oshcc accepted --inst-only naming a missing file"; exit 1
fi
grep -q "oshcc: --inst-only $tmp/missing.txt: not a readable file" "$tmp/err" || { cat "$tmp/err"; echo "FAIL: message"; exit 1; }
"$oshcc" --inst --inst-only "$list" "$tmp/known.o" -o "$tmp/filtered"
# The unfiltered program is measured for everything (a barrier, an AMO...).
"$oshrun" --profile="$tmp/plain" -np "$np" "$tmp/plain" >/dev/null 2>&1
"$python" -c "import json,sys; s=json.load(open(sys.argv[1])); names={e['name'] for p in s['pes'] for e in p['events']}; \
sys.exit(0 if {'shmem_barrier_all','shmem_amo','shmem_put'} <= names else 'FAIL: plain program: ' + str(sorted(names)))" \
  "$tmp/plain.summary.json"
"$python" "$check" inst-only --oshrun "$oshrun" --np "$np" --program "$tmp/filtered"
