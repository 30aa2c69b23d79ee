#!/bin/bash
# The "make run" demonstration, inside the VM: what each device offers, a
# short workload with one lifetime hint per file, and what each device
# received.
set -u
here=$(dirname "$0")
sd=$(for d in /sys/block/sd*; do grep -q scsi_debug "$d/device/model" && basename "$d"; done | head -n 1)
stats=/sys/bus/pseudo/drivers/scsi_debug/group_number_stats

echo "=== devices"
lsblk -d -o NAME,SIZE,MODEL 2>/dev/null || ls /sys/block
echo
echo "=== scsi_debug ($sd): IO Advice Hints Grouping mode page and streams"
sg_modes --page=0xa,0x5 "/dev/$sd" 2>&1 | sed -n '1,12p'
sg_stream_ctl --get "/dev/$sd" 2>&1 | head -n 8
echo
echo "=== QEMU NVMe: optional admin command support (no Directives bit 5)"
nvme id-ctrl /dev/nvme0 2>/dev/null | grep -E '^(mn|oacs) '
echo
echo "=== NVMe over the loop target on /dev/ram0, offering 8 streams"
# nvmet's counters are in debugfs (CONFIG_NVME_TARGET_DEBUGFS)
ns=/sys/kernel/debug/nvmet/demo/ns1
if nvmet=$(NVMET_NS_ATTRS="streams=8" "$here/nvmet-loop.sh" up /dev/ram0 demo); then
	d=${nvmet#/dev/}
	echo "connected as $nvmet"
	for a in /sys/block/$d/queue/max_write_streams \
		/sys/block/$d/queue/write_stream_granularity \
		/sys/kernel/debug/block/$d/write_stream_map; do
		[ -f $a ] && { echo "$a:"; sed 's/^/  /' $a; }
	done
	if [ -f $ns/stream_stats ]; then
		mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$nvmet" &&
		mkdir -p /mnt/nvme && mount "$nvmet" /mnt/nvme && {
			echo 0 > $ns/stream_stats
			# fsync-heavy small writes (journal), one file per hint
			fio --directory=/mnt/nvme --rw=write --bs=4k --size=2m \
				--fsync=4 --output=/dev/null \
				--name=nohint --name=short --write_hint=short \
				--name=extreme --write_hint=extreme || echo "fio failed"
			umount /mnt/nvme
			echo "write commands per stream received by nvmet (stream 0: none):"
			awk '$2 != 0 { printf "  stream %2d: %6d writes %8d blocks\n", $1, $2, $3 }' $ns/stream_stats
		}
	fi
	"$here/nvmet-loop.sh" down demo
fi
echo
# XFS: in 6.12 its buffered writeback (iomap) carries the inode's hint; ext4's does not.
echo "=== workload: XFS on /dev/$sd, one fio job per lifetime hint (buffered)"
mkfs.xfs -q -f "/dev/$sd" && mount "/dev/$sd" /mnt/scratch || exit 1
echo 0 > $stats
fio --directory=/mnt/scratch --rw=write --bs=64k --size=4m \
	--end_fsync=1 --minimal \
	--name=none --write_hint=none --name=short --write_hint=short \
	--name=medium --write_hint=medium --name=long --write_hint=long \
	--name=extreme --write_hint=extreme >/dev/null || echo "fio failed"
sync
umount /mnt/scratch
echo "WRITE commands per GROUP NUMBER received by scsi_debug (non-zero only):"
awk '$2 != 0 { printf "  group %2d: %6d\n", $1, $2 }' $stats
