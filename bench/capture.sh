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

# The file system is 128 MiB (the simulator's logical space) and half full
# of long-lived data; the workloads' footprints fit in the rest, and SCALE
# only sets how much they overwrite.
FS_MIB=128
io() { echo $(( $1 * scale )); }

fill() {
	fio --directory=$mnt --name=static --rw=write --bs=1m --size=56m \
		--output=/dev/null
}

wl_mixed() {	# files with mixed lifetimes written concurrently; $1: hints?
	local h1= h2= h3=
	if [ "$1" = hints ]; then
		h1=--write_hint=short h2=--write_hint=medium h3=--write_hint=extreme
	fi
	fio --directory=$mnt --ioengine=psync --bs=4k --output=/dev/null \
		--name=hot --rw=randwrite --size=8m --io_size=$(io 24)m $h1 \
		--name=warm --rw=randwrite --size=16m --io_size=$(io 12)m $h2 \
		--name=cold --rw=write --size=24m $h3
}

wl_varmail() {	# fsync-heavy small files, created and deleted
	fio --directory=$mnt --ioengine=psync --bs=4k --output=/dev/null \
		--name=mail --rw=write --nrfiles=400 --filesize=16k \
		--fsync=1 --unlink=1 --loops=$(io 2) \
		--file_service_type=sequential --size=6400k
}

wl_dbwal() {	# WAL appends + random page overwrites + checkpoints
	"$BUILD/bench/dbwal" $mnt 24 $(io 1500)
}

wl_bgcopy() {	# foreground overwrites next to an ionice -c3 copy
	fio --directory=$mnt --ioengine=psync --bs=4k --direct=1 \
		--output=/dev/null --name=fg --rw=randwrite --size=12m \
		--io_size=$(io 24)m &
	local fg=$!
	ionice -c3 fio --directory=$mnt --ioengine=psync --bs=64k --direct=1 \
		--output=/dev/null --name=backup --rw=write --size=32m
	wait $fg
}

wl_swap() {	# swap-out pressure next to data writes
	local cg=/sys/fs/cgroup/bench-swap
	fallocate -l 24M $mnt/swapfile && chmod 600 $mnt/swapfile &&
		mkswap $mnt/swapfile >/dev/null && swapon $mnt/swapfile || return 1
	echo +memory > /sys/fs/cgroup/cgroup.subtree_control
	mkdir -p $cg && echo 16M > $cg/memory.max
	fio --directory=$mnt --ioengine=psync --bs=4k --output=/dev/null \
		--name=data --rw=randwrite --size=12m --io_size=$(io 16)m &
	local data=$!
	sh -c "echo \$\$ > $cg/cgroup.procs; exec $BUILD/bench/memhog 32"
	wait $data
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
		mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0,nodiscard \
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
		echo "   $(wc -l < "$out/$wl-$n.raw") requests captured"
	done
	"$root/scripts/guest/nvmet-loop.sh" down bench
done
