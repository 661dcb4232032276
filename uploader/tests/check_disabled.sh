#!/bin/sh
# The PROBE_DISABLE build of test_probe must run and hold no reference to any
# probe_ symbol (the macros compile to ((void)0)).
set -u
bin=$1
if nm "$bin" | grep -E '(^| )probe_' ; then
    echo "FAIL: $bin references probe_ symbols with PROBE_DISABLE"
    exit 1
fi
"$bin" || exit 1
echo "no probe_ symbols in $bin"
