#!/bin/bash
# Boot the test kernel in QEMU and run one command in the guest.
#
#   vm.sh [options] [--] COMMAND...
#     --kernel FILE    bzImage (default build/obj/arch/x86/boot/bzImage)
#     --out DIR        results folder, shared writable with the guest as
#                      /mnt/results (default build/vm/out); the console log
#                      is kept there as console.log
#     --append ARGS    extra kernel command line (e.g. scsi_debug.foo=1)
#     --timeout SECS   wall-clock limit for the whole VM (default 600)
#     --mem MB         guest memory (default 2048)
#     --icount         deterministic instruction counting (-icount shift=0,
#                      sleep=off): the guest clock advances 1 ns per guest
#                      instruction, so guest-measured rates count
#                      instructions, not host time (for cost comparisons
#                      that host noise would swamp)
# Environment: VM_QEMU, the QEMU binary (default qemu-system-x86_64 from
# PATH); VM_QEMU_ARGS, more QEMU options (e.g. a -plugin).
#
# The guest's root is the host's / over virtio-9p, read-only; /tmp, /run and
# /mnt are tmpfs. COMMAND runs in bash in /mnt/results with the repository
# at $ROOT (same path as on the host). Devices: QEMU's emulated NVMe on a
# sparse file (/dev/nvme0n1), scsi_debug (/dev/sda), brd (/dev/ram0, for the
# nvmet loop target), null_blk (/dev/nullb0).
#
# Exit status: the guest command's, 124 on timeout, 125 if the guest died
# before reporting one (see console.log).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

KERNEL=$OBJ/arch/x86/boot/bzImage
OUT=$BUILD/vm/out
APPEND=
TIMEOUT=600
MEM=2048
ICOUNT=
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) KERNEL=$2; shift 2 ;;
	--out) OUT=$2; shift 2 ;;
	--append) APPEND="$APPEND $2"; shift 2 ;;
	--timeout) TIMEOUT=$2; shift 2 ;;
	--mem) MEM=$2; shift 2 ;;
	--icount) ICOUNT="-icount shift=0,sleep=off"; shift ;;
	--) shift; break ;;
	-*) die "unknown option $1" ;;
	*) break ;;
	esac
done
[ $# -gt 0 ] || die "usage: vm.sh [options] -- COMMAND..."
[ -f "$KERNEL" ] || die "no kernel at $KERNEL: run 'make kernel'"

mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
rm -f "$OUT/rc" "$OUT/console.log"
# The command travels as a script in the results folder.
{
	echo "cd /mnt/results"
	printf 'export ROOT=%q BUILD=%q\n' "$ROOT" "$BUILD"
	printf '%q ' "$@"
	echo
} > "$OUT/cmd.sh"

# A fresh sparse backing file for QEMU's NVMe every boot: tests start clean.
NVME_IMG=$OUT/nvme.img
rm -f "$NVME_IMG"
truncate -s 1G "$NVME_IMG"

# KVM hangs nested guests on these machines: TCG unless a probe shows KVM
# works (set VM_ACCEL=kvm to force it).
ACCEL=${VM_ACCEL:-tcg}
CPU=max
[ "$ACCEL" = kvm ] && CPU=host
[ -n "$ICOUNT" ] && [ "$ACCEL" = kvm ] && die "--icount needs TCG"

# log_buf_len: the default 128 KiB lost the boot lines during make test.
CMDLINE="console=ttyS0 panic=-1 oops=panic quiet loglevel=4 log_buf_len=4M"
CMDLINE="$CMDLINE root=r rootfstype=9p rootflags=trans=virtio,version=9p2000.L,cache=loose ro"
CMDLINE="$CMDLINE init=$ROOT/scripts/guest/init.sh streams_build=$BUILD"
CMDLINE="$CMDLINE scsi_debug.dev_size_mb=512 brd.rd_nr=1 brd.rd_size=262144"
CMDLINE="$CMDLINE $APPEND"

set +e
timeout --foreground -k 5 "$TIMEOUT" "${VM_QEMU:-qemu-system-x86_64}" ${VM_QEMU_ARGS:-} \
	-accel "$ACCEL" $ICOUNT -cpu "$CPU" -smp 2 -m "$MEM" \
	-nodefaults -nographic -no-reboot -serial stdio \
	-kernel "$KERNEL" -append "$CMDLINE" \
	-fsdev local,id=r,path=/,security_model=none,readonly=on,multidevs=remap \
	-device virtio-9p-pci,fsdev=r,mount_tag=r \
	-fsdev local,id=res,path="$OUT",security_model=none,multidevs=remap \
	-device virtio-9p-pci,fsdev=res,mount_tag=results \
	-drive file="$NVME_IMG",if=none,id=nvm,format=raw,cache=unsafe \
	-device nvme,serial=qemu-nvme,drive=nvm \
	</dev/null > "$OUT/console.log" 2>&1
qemu_rc=$?
set -e
rm -f "$NVME_IMG"

if [ $qemu_rc = 124 ]; then
	echo "vm: timed out after ${TIMEOUT}s; console log: $OUT/console.log" >&2
	exit 124
fi
if [ ! -f "$OUT/rc" ]; then
	echo "vm: guest ended without reporting a status (qemu exit $qemu_rc); last console lines:" >&2
	tail -n 30 "$OUT/console.log" >&2
	exit 125
fi
exit "$(cat "$OUT/rc")"
