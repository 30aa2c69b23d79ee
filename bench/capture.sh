#!/bin/bash
# Inside the test VM: run the placement workloads on an nvmet namespace
# that offers N streams, and capture every request issued to it from the
# block_rq_hints trace event (sector, length, class, hint, file stream ID,
# device stream; discards too).
#
#   capture.sh OUT "N..." "WORKLOAD..." SCALE
# writes OUT/<workload>-<N>.raw (trace_pipe lines of the nvme disk only).
set -u
out=$1 streams=$2 workloads=$3 scale=${4:-1}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
T=/sys/kernel/tracing
mnt=/mnt/bench
mkdir -p "$out" "$mnt"
echo 32768 > $T/buffer_size_kb

# The file system is 128 MiB (the simulator's logical space). The fill
# leaves 72 MiB of long-lived data and writes and deletes 40 MiB of scratch
# (discarded), so the device's spare blocks are used up quickly and garbage
# collection starts early in the workload. Each workload keeps at most
# about 40 MiB live: the device ends up about 85% full, where placement
# matters (with lots of free space, greedy GC always finds empty blocks).
#
# Every workload writes short-lived data next to long-lived data at the
# same time, and syncs as real programs do (otherwise the page cache
# absorbs the overwrites and the device sees each file written once). The
# fio workloads run for SECS seconds and their long-lived writer is rate
# limited to spread its data evenly over that time; SCALE multiplies the
# time, and so how often the short-lived data is overwritten.
FS_MIB=128
secs=$(( 20 * scale ))
# fio rate (KiB/s) that writes $1 MiB in $secs seconds.
rate() { echo $(( $1 * 1024 / secs ))k; }

fill() {
	fio --directory=$mnt --rw=write --bs=1m --output=/dev/null \
		--name=static --size=72m --name=scratch --size=40m &&
		sync && rm $mnt/scratch.* && sync
}

wl_mixed() {	# files with mixed lifetimes written concurrently; $1: hints?
	local h1= h2= h3=
	if [ "$1" = hints ]; then
		h1=--write_hint=short h2=--write_hint=medium h3=--write_hint=extreme
	fi
	fio --directory=$mnt --ioengine=psync --bs=4k --output=/dev/null \
		--fsync=64 \
		--name=hot --rw=randwrite --size=8m --time_based \
		--runtime=$secs $h1 \
		--name=warm --rw=randwrite --size=16m --time_based \
		--runtime=$secs --rate=$(rate 32) $h2 \
		--name=cold --rw=write --size=16m --rate=$(rate 16) $h3
}

wl_varmail() {	# fsync-heavy mail delivery and deletion; 1 in 8 archived
	"$BUILD/bench/mailsim" $mnt $(( 12 * scale )) 400 40
}

wl_dbwal() {	# WAL appends + random page overwrites + history + checkpoints
	"$BUILD/bench/dbwal" $mnt 24 16 $(( 2500 * scale ))
}

wl_bgcopy() {	# foreground overwrites next to an ionice -c3 copy
	ionice -c3 fio --directory=$mnt --ioengine=psync --direct=1 \
		--output=/dev/null --name=backup --bs=64k --rw=write \
		--size=24m --rate=$(rate 24) &
	local backup=$!
	fio --directory=$mnt --ioengine=psync --direct=1 --output=/dev/null \
		--name=fg --bs=4k --rw=randwrite --size=12m --time_based \
		--runtime=$secs
	wait $backup
}

wl_swap() {	# swap-out pressure next to data writes and a growing log
	local cg=/sys/fs/cgroup/bench-swap fio
	fallocate -l 24M $mnt/swapfile && chmod 600 $mnt/swapfile &&
		mkswap $mnt/swapfile >/dev/null && swapon $mnt/swapfile || return 1
	echo +memory > /sys/fs/cgroup/cgroup.subtree_control
	mkdir -p $cg && echo 16M > $cg/memory.max
	fio --directory=$mnt --ioengine=psync --bs=4k --direct=1 \
		--output=/dev/null \
		--name=data --rw=randwrite --size=8m --time_based \
		--runtime=$secs \
		--name=log --rw=write --size=8m --rate=$(rate 8) &
	fio=$!
	while kill -0 $fio 2>/dev/null; do
		sh -c "echo \$\$ > $cg/cgroup.procs; exec $BUILD/bench/memhog 32"
	done
	wait $fio
	swapoff $mnt/swapfile
	rmdir $cg
}

for n in $streams; do
	nvme=$(NVMET_NS_ATTRS="streams=$n" "$root/scripts/guest/nvmet-loop.sh" up /dev/ram0 bench) || exit 1
	disk=${nvme#/dev/}
	devno=$(tr : , < /sys/block/$disk/dev)
	for wl in $workloads; do
		echo "== $wl on $disk with $n streams"
		blkdiscard "$nvme" 2>/dev/null
		mkfs.ext4 -q -F -m 0 -N 4096 \
			-E lazy_itable_init=0,lazy_journal_init=0,nodiscard \
			"$nvme" ${FS_MIB}M || exit 1
		mount -o discard "$nvme" $mnt || exit 1
		echo > $T/trace
		echo 1 > $T/events/block/block_rq_hints/enable
		# The long-lived fill goes to a trace of its own: it is written
		# once, the workload's trace is replayed several times.
		grep --line-buffered "block_rq_hints: $devno " $T/trace_pipe > "$out/$wl-$n.fill.raw" &
		reader=$!
		fill
		sync
		sleep 1
		kill $reader 2>/dev/null
		wait $reader 2>/dev/null
		grep --line-buffered "block_rq_hints: $devno " $T/trace_pipe > "$out/$wl-$n.raw" &
		reader=$!
		start=$(date +%s)
		case $wl in
		mixed) wl_mixed hints ;;
		mixed-nohints) wl_mixed none ;;
		*) wl_$wl ;;
		esac || echo "workload $wl failed"
		sync
		umount $mnt
		sleep 1
		echo 0 > $T/events/block/block_rq_hints/enable
		sleep 1
		kill $reader 2>/dev/null
		wait $reader 2>/dev/null
		echo "   $(wc -l < "$out/$wl-$n.raw") requests captured in $(( $(date +%s) - start )) s"
	done
	"$root/scripts/guest/nvmet-loop.sh" down bench
done
