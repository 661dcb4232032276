#!/bin/sh
# Runs the pattern program (with its halo step) on 4 ranks under libprophecy_trace (LD_PRELOAD) and
# checks its trace. Usage: run_trace_mpi.sh MPIEXEC LIBTRACE PATTERN CHECK
set -u
mpiexec=$1
lib=$2
pattern=$3
check=$4
dir=$(mktemp -d /tmp/test_trace_mpi.XXXXXX) || exit 1
trap 'rm -rf "$dir"' EXIT
extra=""
if "$mpiexec" --version 2>/dev/null | grep -qiE "open ?mpi|openrte"; then
    extra="--oversubscribe --allow-run-as-root -x LD_PRELOAD -x PROPHECY_TRACE_DIR"
fi
LD_PRELOAD=$lib PROPHECY_TRACE_DIR=$dir "$mpiexec" $extra -np 4 "$pattern" halo || exit 1
ls -l "$dir"
"$check" "$dir"
