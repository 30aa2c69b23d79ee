#!/bin/bash
# The host's write streams against an FDP device we did not write: QEMU's
# own emulated NVMe Flexible Data Placement (QEMU 10 from trixie's source,
# scripts/qemu.sh), in a VM of its own.
#
#   test-qemu-fdp.sh [--out DIR] [--kernel FILE] [--append ARGS] [--timeout SECS]
#
# Builds QEMU once per machine if missing (scripts/qemu.sh) and the test
# (tests/qemu-fdp/qemu_fdp_test.c) against the kernel's uapi headers, boots
# the kernel with two QEMU NVMe controllers, serial qemu-fdp: an FDP
# subsystem with 8 reclaim unit handles in one reclaim group, whose
# namespace lists them in reverse order; serial qemu-plain: no FDP. The
# guest runs the test and, for the record, nvme-cli's view of the same
# device. Leaves in DIR (default build/qemu-fdp/out): qemu-fdp.tap (TAP),
# qemu-fdp.rc (its exit status), nvme-cli.txt, console.log, the bzImage
# tested. Exit status: the test's, 124 on timeout, 125
# if the guest died before reporting one.
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
rm -f "$OUT/rc" "$OUT/console.log" "$OUT/qemu-fdp.tap" "$OUT/qemu-fdp.rc" \
	"$OUT/nvme-cli.txt"
# A copy: others may rebuild build/obj while this VM runs.
cp "$KERNEL" "$OUT/bzImage"
{
	echo "cd /mnt/results || exit 1"
	printf 'export ROOT=%q BUILD=%q\n' "$ROOT" "$BUILD"
	printf '%q > qemu-fdp.tap 2>&1\n' "$bin/qemu_fdp_test"
	echo 'rc=$?'
	echo 'cat qemu-fdp.tap'
	# nvme-cli's reading of the same device, after the test's writes.
	cat <<-'EOF'
	{
		for d in /sys/block/nvme*; do
			echo "== ${d##*/}: serial $(cat "$d/device/serial")," \
				"max_write_streams $(cat "$d/queue/max_write_streams")"
		done
		dev=$(grep -l '^qemu-fdp' /sys/block/nvme*/device/serial | head -n1)
		dev=${dev#/sys/block/}; dev=/dev/${dev%%/*}
		for c in configs usage stats events; do
			echo "== nvme fdp $c $dev -e 1"
			nvme fdp "$c" "$dev" -e 1
		done
		echo "== nvme fdp status $dev"
		nvme fdp status "$dev"
	} > nvme-cli.txt 2>&1
	exit $rc
	EOF
} > "$OUT/cmd.sh"

for img in fdp plain; do
	rm -f "$OUT/$img.img"
	truncate -s 1G "$OUT/$img.img"
done

CMDLINE="console=ttyS0 panic=-1 oops=panic quiet loglevel=4"
CMDLINE="$CMDLINE root=r rootfstype=9p rootflags=trans=virtio,version=9p2000.L,cache=loose ro"
CMDLINE="$CMDLINE init=$ROOT/scripts/guest/init.sh streams_build=$BUILD$APPEND"

# fdp.runs must match FDP_RUNS and fdp.nruh NR_RUH in the test.
# shellcheck disable=SC2054 # commas separate QEMU's suboptions
QEMU_FDP_ARGS=(
	-device nvme-subsys,id=fdp-subsys,nqn=qemu-fdp,fdp=on,fdp.nruh=8,fdp.nrg=1,fdp.runs=128M
	-device nvme,id=fdp-ctrl,serial=qemu-fdp,subsys=fdp-subsys
	-drive file="$OUT/fdp.img",if=none,id=fdp-drive,format=raw,cache=unsafe
	-device "nvme-ns,bus=fdp-ctrl,drive=fdp-drive,nsid=1,fdp.ruhs=7;6;5;4;3;2;1;0"
	-drive file="$OUT/plain.img",if=none,id=plain-drive,format=raw,cache=unsafe
	-device nvme,serial=qemu-plain,drive=plain-drive
)

log "qemu-fdp: booting $("$QEMU" --version | head -n1)"
set +e
timeout --foreground -k 5 "$TIMEOUT" nice -n 10 "$QEMU" \
	-L /usr/share/qemu -L /usr/share/seabios -nic none \
	-accel "${VM_ACCEL:-tcg}" -cpu max -smp 2 -m 1024 \
	-nodefaults -nographic -no-reboot -serial stdio \
	-kernel "$OUT/bzImage" -append "$CMDLINE" \
	-fsdev local,id=r,path=/,security_model=none,readonly=on,multidevs=remap \
	-device virtio-9p-pci,fsdev=r,mount_tag=r \
	-fsdev local,id=res,path="$OUT",security_model=none,multidevs=remap \
	-device virtio-9p-pci,fsdev=res,mount_tag=results \
	"${QEMU_FDP_ARGS[@]}" \
	</dev/null > "$OUT/console.log" 2>&1
qemu_rc=$?
set -e
rm -f "$OUT/fdp.img" "$OUT/plain.img"
secs=$(( $(date +%s) - start ))

if [ $qemu_rc = 124 ]; then
	echo "qemu-fdp: timed out after ${TIMEOUT}s; console log: $OUT/console.log" >&2
	exit 124
fi
if [ ! -f "$OUT/rc" ]; then
	echo "qemu-fdp: guest ended without reporting a status (qemu exit $qemu_rc); last console lines:" >&2
	tail -n 30 "$OUT/console.log" >&2
	exit 125
fi
rc=$(cat "$OUT/rc")
cp "$OUT/rc" "$OUT/qemu-fdp.rc"	# tap-summary.sh's sidecar: the exit status
log "qemu-fdp: $(grep -c '^ok' "$OUT/qemu-fdp.tap") ok, $(grep -c '^not ok' "$OUT/qemu-fdp.tap") not ok, in ${secs}s; TAP in $OUT/qemu-fdp.tap"
exit "$rc"
