#!/bin/sh
# Runs test_probe_mpi on 2 ranks with PROBE_OUTPUT set; rank 0 checks the file.
# Usage: run_probe_mpi.sh MPIEXEC TEST_BINARY
set -u
mpiexec=$1
bin=$2
out=$(mktemp /tmp/test_probe_mpi.XXXXXX) || exit 1
trap 'rm -f "$out"' EXIT
extra=""
if "$mpiexec" --version 2>/dev/null | grep -qiE "open ?mpi|openrte"; then
    extra="--oversubscribe --allow-run-as-root -x PROBE_OUTPUT"
fi
PROBE_OUTPUT=$out "$mpiexec" $extra -np 2 "$bin"
