#!/bin/bash
# Run every test and print the closing count. Expects a built kernel and
# selftests (the Makefile's "test" target builds them first).
#  1. the series check (applies, checkpatch --strict, matches the tree);
#  2. host-side tests (tests/host/*.sh, TAP);
#  3. one VM boot: the streams kselftests, the KUnit suites that ran at
#     boot, and a check of the kernel log of the boot and of each suite
#     (scripts/kernel-log-check.sh);
#  4. not with GUEST_ONLY=1: a second VM, on QEMU 10 (built once per
#     machine by scripts/qemu.sh), against QEMU's own FDP device
#     (scripts/test-qemu-fdp.sh), with the same kernel log check;
#  5. the run against tests/manifest and tests/skip-allowlist
#     (scripts/manifest-check.sh): a suite or test that did not report, or
#     a skip nobody allowed, fails the run.
#
# Environment (make test-debug sets them; the defaults are make test's):
#   OBJ, SELFTESTS   the kernel build and the kselftests (scripts/lib.sh)
#   RESULTS          results folder (default build/test-results)
#   GUEST_ONLY=1     skip 1. and 2.; the manifest check then leaves out the
#                    suites of the series check and the host tests
#   VM_TIMEOUT, VM_ARGS   vm.sh's time limit, more vm.sh options
#   SELFTEST_TIMEOUT      the guest's limit per kselftest binary (900 s)
# If OBJ's kernel has KASAN, lockdep or debugobjects, a 6th check
# (scripts/debug-kernel-check.sh) asserts that the boot log shows them on.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

res=${RESULTS:-$BUILD/test-results}
rm -rf "$res"
mkdir -p "$res/host"

if [ "${GUEST_ONLY:-0}" != 1 ]; then
	log "series check"
	"$ROOT/scripts/check-series.sh" > "$res/series.tap" 2>&1

	log "host tests"
	for t in "$ROOT"/tests/host/*.sh; do
		[ -f "$t" ] || continue
		name=$(basename "$t" .sh)
		bash "$t" > "$res/host/$name.tap" 2>&1
		echo $? > "$res/host/$name.rc"
	done
fi

guest=("$ROOT/scripts/guest/run-selftests.sh" "$SELFTESTS/streams" /mnt/results/guest)
[ -z "${SELFTEST_TIMEOUT:-}" ] || guest=(env SELFTEST_TIMEOUT="$SELFTEST_TIMEOUT" "${guest[@]}")
read -ra vm_args <<<"${VM_ARGS:-}"
log "guest tests (kselftests + KUnit), console log: $res/vm/console.log"
"$ROOT/scripts/vm.sh" --out "$res/vm" --timeout "${VM_TIMEOUT:-2700}" "${vm_args[@]}" -- \
	"${guest[@]}" > "$res/vm.log" 2>&1
vm_rc=$?

# Every selftest that was built must have reported (and the manifest
# check catches one that was not built).
files=()
[ "${GUEST_ONLY:-0}" = 1 ] || files=("$res/series.tap")
shopt -s nullglob
files+=("$res"/host/*.tap)
shopt -u nullglob
suites=()
for t in "$SELFTESTS"/streams/*; do
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

if [ "${GUEST_ONLY:-0}" != 1 ]; then
	# An FDP device we did not write. Its TAP is missing if QEMU did not
	# build or the VM died, and the manifest check then fails the run.
	log "QEMU FDP device (QEMU 10; the first run builds it), log: $res/qemu-fdp.log"
	"$ROOT/scripts/test-qemu-fdp.sh" --out "$res/qemu-fdp" > "$res/qemu-fdp.log" 2>&1
	files+=("$res/qemu-fdp/qemu-fdp.tap")
	"$ROOT/scripts/kernel-log-check.sh" "$res/qemu-fdp" qemu-fdp \
		> "$res/kernel-qemu-fdp.tap"
	files+=("$res/kernel-qemu-fdp.tap")
fi
manifest=()
if [ "${GUEST_ONLY:-0}" = 1 ]; then
	# Only what the VM reports: not the series check, not the host tests.
	manifest=(-m "$res/manifest")
	skip="series qemu-fdp kernel-qemu-fdp"
	for t in "$ROOT"/tests/host/*.sh; do skip+=" $(basename "$t" .sh)"; done
	awk -F'\t' -v skip="$skip" 'BEGIN { n = split(skip, s, " "); for (i = 1; i <= n; i++) drop[s[i]] = 1 }
		/^#/ || !($1 in drop)' "$ROOT/tests/manifest" > "$res/manifest"
fi
"$ROOT/scripts/manifest-check.sh" "${manifest[@]}" "${files[@]}" > "$res/manifest.tap"
files+=("$res/manifest.tap")
if grep -Eqx 'CONFIG_(KASAN|PROVE_LOCKING|DEBUG_OBJECTS)=y' "$OBJ/.config" 2>/dev/null; then
	"$ROOT/scripts/debug-kernel-check.sh" "$OBJ/.config" "$res/vm/guest" > "$res/debug_kernel.tap"
	files+=("$res/debug_kernel.tap")
fi

echo
"$ROOT/scripts/tap-summary.sh" "${files[@]}" | tee "$res/summary.txt"
exit "${PIPESTATUS[0]}"
