#!/bin/bash
# Run every test and print the closing count. Expects a built kernel and
# selftests (the Makefile's "test" target builds them first).
#  1. the series check (applies, checkpatch --strict, matches the tree);
#  2. host-side tests (tests/host/*.sh, TAP);
#  3. one VM boot: the streams kselftests, the KUnit suites that ran at
#     boot, and a check that the kernel log has no WARNING/BUG/Oops.
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

# Every selftest that was built must have reported.
shopt -s nullglob
files=("$res/series.tap" "$res"/host/*.tap)
shopt -u nullglob
for t in "$BUILD"/selftests/streams/*; do
	[ -x "$t" ] && files+=("$res/vm/guest/$(basename "$t").tap")
done
files+=("$res/vm/guest/kunit.ktap")

# The kernel log check, as one more TAP result.
{
	echo "1..2"
	if [ $vm_rc = 0 ]; then echo "ok 1 guest ran to the end"
	else sed 's/^/# /' "$res/vm.log" | tail -n 30; echo "not ok 1 guest ran to the end (vm.sh exit $vm_rc)"; fi
	bad=$(cat "$res/vm/guest/dmesg-boot.log" "$res/vm/guest/dmesg.log" 2>/dev/null |
		grep -E 'WARNING:|BUG:|Oops|Kernel panic|Call Trace:' | head -n 20)
	if [ -f "$res/vm/guest/dmesg.log" ] && [ -z "$bad" ]; then echo "ok 2 kernel log has no WARNING, BUG or Oops"
	else printf '%s\n' "$bad" | sed 's/^/# /'; echo "not ok 2 kernel log has no WARNING, BUG or Oops"; fi
} > "$res/kernel.tap"
files+=("$res/kernel.tap")

echo
"$ROOT/scripts/tap-summary.sh" "${files[@]}" | tee "$res/summary.txt"
exit "${PIPESTATUS[0]}"
