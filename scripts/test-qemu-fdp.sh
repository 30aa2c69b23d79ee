#!/bin/bash
# The host's write streams against an FDP device we did not write: QEMU's
# own emulated NVMe Flexible Data Placement (QEMU 10 from trixie's source,
# scripts/qemu.sh), in a VM of its own.
#
#   test-qemu-fdp.sh [--out DIR] [--kernel FILE] [--append ARGS] [--timeout SECS]
#
# Builds QEMU once per machine if missing (scripts/qemu.sh) and the test
# (tests/qemu-fdp/qemu_fdp_test.c) against the kernel's uapi headers, and
# boots the kernel through scripts/vm.sh with that QEMU (VM_QEMU) and three
# more QEMU NVMe controllers (VM_QEMU_ARGS), serial qemu-fdp: an FDP
# subsystem with 8 reclaim unit handles in one reclaim group, whose
# namespace lists them in reverse order; serial qemu-plain: no FDP; serial
# qemu-bench: a 128 MiB FDP namespace in a subsystem of its own (reclaim
# units larger than all it is written, see there), for
# scripts/guest/bench-real.sh (the device benchmark's path for a real SSD).
# The test finds them by serial, so vm.sh's own devices (its NVMe, serial
# qemu-nvme; scsi_debug; brd) are bystanders. The guest
# (scripts/guest/qemu-fdp.sh) runs the test, records nvme-cli's view of
# the same device, then runs bench-real.sh. Leaves in DIR (default
# build/qemu-fdp/out, a path without blanks or glob characters: it goes
# into VM_QEMU_ARGS): qemu-fdp.tap (TAP), qemu-fdp.rc (its exit status),
# bench_real.tap and .rc, nvme-cli.txt, console.log, the bzImage tested.
# Exit status: vm.sh's: the test's (then bench-real.sh's), 124 on
# timeout, 125 if the guest died before reporting one.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

OUT=$BUILD/qemu-fdp/out
KERNEL=$OBJ/arch/x86/boot/bzImage
TIMEOUT=600
APPEND=
while [ $# -gt 0 ]; do
	case $1 in
	--out) OUT=$2; shift 2 ;;
	--kernel) KERNEL=$2; shift 2 ;;
	--append) APPEND="$APPEND $2"; shift 2 ;;
	--timeout) TIMEOUT=$2; shift 2 ;;
	*) die "usage: test-qemu-fdp.sh [--out DIR] [--kernel FILE] [--append ARGS] [--timeout SECS]" ;;
	esac
done
[ -f "$KERNEL" ] || die "no kernel at $KERNEL: run 'make kernel'"
start=$(date +%s)

QEMU=$("$ROOT/scripts/qemu.sh" | tail -n1)

# The test, against the uapi headers of the kernel under test (io_uring's
# write_stream), with the kselftest TAP helpers of its tree.
hdr=$OBJ/usr/include
if ! grep -qs write_stream "$hdr/linux/io_uring.h"; then
	log "qemu-fdp: installing the kernel's uapi headers into $hdr"
	make -s -C "$TREE" O="$OBJ" headers
fi
# It includes "../kselftest.h" as it will in tools/testing/selftests/:
# compile a copy laid out that way, whatever state the tree is in.
bin=$BUILD/qemu-fdp/bin
src=$BUILD/qemu-fdp/src
[ -f "$TREE/tools/testing/selftests/kselftest.h" ] ||
	die "no $TREE/tools/testing/selftests/kselftest.h: run 'make tree'"
mkdir -p "$bin" "$src/qemu-fdp"
cp "$TREE/tools/testing/selftests/kselftest.h" "$src/"
cp "$ROOT/tests/qemu-fdp/qemu_fdp_test.c" "$src/qemu-fdp/"
${CC:-cc} -O2 -g -Wall -isystem "$hdr" \
	-o "$bin/qemu_fdp_test" "$src/qemu-fdp/qemu_fdp_test.c"

mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
rm -f "$OUT/rc" "$OUT/qemu-fdp.tap" "$OUT/qemu-fdp.rc" "$OUT/nvme-cli.txt" \
	"$OUT/bench_real.tap" "$OUT/bench_real.rc"

# What QEMU 10 from scripts/qemu.sh needs (see there) and the FDP devices;
# fdp-subsys's fdp.runs must match FDP_RUNS and fdp.nruh NR_RUH in the
# test.
# shellcheck disable=SC2054 # commas separate QEMU's suboptions
QEMU_FDP_ARGS=(
	-L /usr/share/qemu -L /usr/share/seabios -nic none
	-device nvme-subsys,id=fdp-subsys,nqn=qemu-fdp,fdp=on,fdp.nruh=8,fdp.nrg=1,fdp.runs=128M
	-device nvme,id=fdp-ctrl,serial=qemu-fdp,subsys=fdp-subsys
	-drive file="$OUT/fdp.img",if=none,id=fdp-drive,format=raw,cache=unsafe
	-device "nvme-ns,bus=fdp-ctrl,drive=fdp-drive,nsid=1,fdp.ruhs=7;6;5;4;3;2;1;0"
	-drive file="$OUT/plain.img",if=none,id=plain-drive,format=raw,cache=unsafe
	-device nvme,serial=qemu-plain,drive=plain-drive
	-device nvme-subsys,id=bench-subsys,nqn=qemu-bench,fdp=on,fdp.nruh=8,fdp.nrg=1,fdp.runs=1G
	-device nvme,id=bench-ctrl,serial=qemu-bench,subsys=bench-subsys
	-drive file="$OUT/bench.img",if=none,id=bench-drive,format=raw,cache=unsafe
	-device "nvme-ns,bus=bench-ctrl,drive=bench-drive,nsid=1,fdp.ruhs=0;1;2;3;4;5;6;7"
)
# vm.sh word-splits VM_QEMU_ARGS unquoted: every word must survive that and
# pathname expansion unchanged (the ';' of fdp.ruhs is not re-parsed).
for a in "${QEMU_FDP_ARGS[@]}"; do
	case $a in
	*[[:space:]*?[\\]*)
		die "qemu-fdp: QEMU argument '$a' has a blank or a glob character (is it the --out path $OUT?)" ;;
	esac
done

# A copy: others may rebuild build/obj while this VM runs.
cp "$KERNEL" "$OUT/bzImage"
for img in fdp:1G plain:1G bench:128M; do
	rm -f "$OUT/${img%:*}.img"
	truncate -s "${img#*:}" "$OUT/${img%:*}.img"
done

vm_args=(--out "$OUT" --kernel "$OUT/bzImage" --timeout "$TIMEOUT" --mem 1024)
[ -n "$APPEND" ] && vm_args+=(--append "$APPEND")

log "qemu-fdp: booting $("$QEMU" --version | head -n1)"
set +e
VM_QEMU=$QEMU VM_QEMU_ARGS="${QEMU_FDP_ARGS[*]}" nice -n 10 \
	"$ROOT/scripts/vm.sh" "${vm_args[@]}" -- \
	bash "$ROOT/scripts/guest/qemu-fdp.sh" "$bin/qemu_fdp_test"
rc=$?
set -e
rm -f "$OUT/fdp.img" "$OUT/plain.img" "$OUT/bench.img"
secs=$(( $(date +%s) - start ))

# No status from the guest (vm.sh said why), or a timeout after it.
[ -f "$OUT/rc" ] && [ "$(cat "$OUT/rc")" = "$rc" ] || exit "$rc"
cp "$OUT/rc" "$OUT/qemu-fdp.rc"	# tap-summary.sh's sidecar: the exit status
for t in qemu-fdp bench_real; do
	log "qemu-fdp: $t: $(grep -c '^ok' "$OUT/$t.tap") ok, $(grep -c '^not ok' "$OUT/$t.tap") not ok; TAP in $OUT/$t.tap"
done
log "qemu-fdp: ${secs}s"
# The test's status, or else bench-real.sh's.
[ "$rc" != 0 ] || rc=$(cat "$OUT/bench_real.rc" 2>/dev/null || echo 1)
exit "$rc"
