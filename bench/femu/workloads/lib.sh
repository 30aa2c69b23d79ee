# shellcheck shell=bash
# Sourced by the workloads of bench/femu/workloads/: each runs as
#   WORKLOAD.sh DEV BYTES
# and keeps writing until FEMU's FDP statistics say the device received
# BYTES more host bytes than when it started (guest.sh exports CTRL, the
# controller's character device).
set -euo pipefail
DEV=$1 BYTES=$2
MNT=/mnt/femu

# Host Bytes with Metadata Written (FDP statistics log 22h, endurance
# group 1, bytes 15:0; the low 64 bits).
host_bytes() {
	nvme get-log "$CTRL" --log-id=0x22 --lsi=1 --log-len=64 -b |
		od -An -tu8 -N8 | tr -d ' '
}
START_BYTES=$(host_bytes)
written_enough() { [ $(($(host_bytes) - START_BYTES)) -ge "$BYTES" ]; }

# ext4 over the whole namespace, 4 KiB blocks, and no discard: neither
# at mkfs nor on deletion, as a file system that leaves it to a periodic
# fstrim runs between two fstrims. The device thus stays full (the fill
# before the workload wrote every block) and every block the file system
# frees is still valid on it until written again, whatever the kernel.
ext4_up() {
	mkdir -p $MNT
	mkfs.ext4 -q -F -m 0 -E nodiscard "$DEV"
	mount -o nodiscard "$DEV" $MNT
}

# MiB of long-lived data (written once, never again) and the MiB left.
fs_fill() {
	fio --directory=$MNT --name=static --rw=write --bs=1m --size="${1}m" \
		--output=/dev/null
	sync
}
fs_free_mb() { df -m --output=avail $MNT | tail -n1 | tr -d ' '; }
fs_size_mb() { df -m --output=size $MNT | tail -n1 | tr -d ' '; }
