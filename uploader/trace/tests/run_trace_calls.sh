#!/bin/sh
# Runs tests/calls.c on 4 ranks under libprophecy_trace (LD_PRELOAD) and checks
# its trace (trace_check calls DIR). Usage: run_trace_calls.sh MPIEXEC LIBTRACE CALLS CHECK
set -u
mpiexec=$1
lib=$2
calls=$3
check=$4
dir=$(mktemp -d /tmp/test_trace_calls.XXXXXX) || exit 1
trap 'rm -rf "$dir"' EXIT
extra=""
if "$mpiexec" --version 2>/dev/null | grep -qiE "open ?mpi|openrte"; then
    extra="--oversubscribe --allow-run-as-root -x LD_PRELOAD -x PROPHECY_TRACE_DIR"
fi
LD_PRELOAD=$lib PROPHECY_TRACE_DIR=$dir "$mpiexec" $extra -np 4 "$calls" || exit 1
ls -l "$dir"
"$check" calls "$dir"
