#!/bin/bash
# Run every test and print the closing count. Expects a built kernel and
# selftests (the Makefile's "test" target builds them first).
#  1. the series check (applies, checkpatch --strict, matches the tree);
#  2. host-side tests (tests/host/*.sh, TAP);
#  3. one VM boot: the streams kselftests, the KUnit suites that ran at
#     boot, and a check of the kernel log of the boot and of each suite
#     (scripts/kernel-log-check.sh);
#  4. the run against tests/manifest and tests/skip-allowlist
#     (scripts/manifest-check.sh): a suite or test that did not report, or
#     a skip nobody allowed, fails the run.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

res=$BUILD/test-results
rm -rf "$res"
mkdir -p "$res/host"

log "series check"
"$ROOT/scripts/check-series.sh" > "$res/series.tap" 2>&1

log "host tests"
for t in "$ROOT"/tests/host/*.sh; do
	[ -f "$t" ] || continue
	name=$(basename "$t" .sh)
	bash "$t" > "$res/host/$name.tap" 2>&1
	echo $? > "$res/host/$name.rc"
done

log "guest tests (kselftests + KUnit), console log: $res/vm/console.log"
"$ROOT/scripts/vm.sh" --out "$res/vm" --timeout "${VM_TIMEOUT:-1200}" -- \
	"$ROOT/scripts/guest/run-selftests.sh" "$BUILD/selftests/streams" /mnt/results/guest \
	> "$res/vm.log" 2>&1
vm_rc=$?

# Every selftest that was built must have reported (and the manifest
# check catches one that was not built).
shopt -s nullglob
files=("$res/series.tap" "$res"/host/*.tap)
shopt -u nullglob
suites=()
for t in "$BUILD"/selftests/streams/*; do
	[ -x "$t" ] || continue
	suites+=("$(basename "$t")")
	files+=("$res/vm/guest/$(basename "$t").tap")
done
files+=("$res/vm/guest/kunit.ktap")

{
	echo "1..1"
	if [ $vm_rc = 0 ]; then echo "ok 1 ran to the end"
	else sed 's/^/# /' "$res/vm.log" | tail -n 30; echo "# vm.sh exit $vm_rc"; echo "not ok 1 ran to the end"; fi
} > "$res/guest.tap"
"$ROOT/scripts/kernel-log-check.sh" "$res/vm/guest" "${suites[@]}" > "$res/kernel.tap"
files+=("$res/guest.tap" "$res/kernel.tap")
"$ROOT/scripts/manifest-check.sh" "${files[@]}" > "$res/manifest.tap"
files+=("$res/manifest.tap")

echo
"$ROOT/scripts/tap-summary.sh" "${files[@]}" | tee "$res/summary.txt"
exit "${PIPESTATUS[0]}"
