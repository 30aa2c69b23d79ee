#!/bin/bash
# make test-debug: make test's guest suites (the streams kselftests, KUnit,
# the kernel log after boot and after each suite, the manifest of what the
# VM reports) on a kernel built with kernel/debug.config on top of
# kernel/streams.config: KASAN, lockdep (PROVE_LOCKING), DEBUG_ATOMIC_SLEEP,
# DEBUG_LIST, DEBUG_OBJECTS. Any report fails the run
# (scripts/kernel-log-check.sh), and so does a debug option that was not on
# to the end (scripts/debug-kernel-check.sh). The series check and the host
# tests do not depend on the kernel's config and are not repeated.
#
# Its own directories, so that it can run next to make test:
# build/obj-debug (kernel), build/selftests-debug, build/test-results-debug.
# Ends with "N passed, N failed, N skipped" in
# build/test-results-debug/summary.txt; non-zero exit on failure.
#
# Environment: VM_MEM (MB, default 3072: KASAN keeps an eighth of it as
# shadow), VM_TIMEOUT (s, default 5400), SELFTEST_TIMEOUT (s per kselftest
# binary, default 1800): TCG runs the debug kernel several times slower.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

export OBJ=$BUILD/obj-debug
export SELFTESTS=$BUILD/selftests-debug
export RESULTS=$BUILD/test-results-debug
export FRAGMENT="$ROOT/kernel/streams.config $ROOT/kernel/debug.config"

t0=$SECONDS
"$ROOT/scripts/build-kernel.sh" "$OBJ"
"$ROOT/scripts/build-selftests.sh"
t1=$SECONDS
log "debug kernel and selftests built in $(((t1 - t0) / 60)) min $(((t1 - t0) % 60)) s"

# kasan_multi_shot: every KASAN report, not only the first.
rc=0
GUEST_ONLY=1 VM_ARGS="--mem ${VM_MEM:-3072} --append kasan_multi_shot" \
VM_TIMEOUT=${VM_TIMEOUT:-5400} SELFTEST_TIMEOUT=${SELFTEST_TIMEOUT:-1800} \
	"$ROOT/scripts/run-tests.sh" || rc=$?
t2=$SECONDS
log "debug run in $(((t2 - t1) / 60)) min $(((t2 - t1) % 60)) s; results in $RESULTS"
exit $rc
