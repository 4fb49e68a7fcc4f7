#!/bin/bash
# tests/gpu/bundle.sh BUILD_DIR [OUTDIR] -- packs what device-check.sh needs
# (../shared/tools/bundle-openmpi: a relocatable Open MPI, libgasket, and
# gasket_gex_test, bench-gex-mk, gex-gpu and gasket-info from BUILD_DIR/bin) into OUTDIR (default
# .carry/gpu, which git ignores through .git/info/exclude), then checks that
# it runs here under an empty environment, as it will there.
set -euo pipefail
build=${1:?usage: bundle.sh BUILD_DIR [OUTDIR]}
out=${2:-.carry/gpu}
grep -qx '/.carry/' .git/info/exclude 2>/dev/null || echo '/.carry/' >> .git/info/exclude
tools=$(cd "$(dirname "$0")/../.." && pwd)/../shared/tools
"$tools/bundle-openmpi" "$out" "$build" gasket_gex_test bench-gex-mk gex-gpu gasket-info > /dev/null
env -i PATH=/usr/bin:/bin HOME="$HOME" OUT="$PWD/$out-rehearsal" bash "$(dirname "$0")/device-check.sh" "$out" || true
