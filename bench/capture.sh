#!/bin/bash
# Inside the test VM: run the placement workloads on an nvmet namespace
# that offers N streams, and capture every request issued to it from the
# block_rq_hints trace event (sector, length, class, lifetime hint, device
# stream, access advice; discards too). bench/traces.sh runs it.
#
#   capture.sh OUT "N..." "WORKLOAD..." SCALE [APP_STREAMS] [EXT4_BLOCK] [PG_SECS]
# EXT4_BLOCK: ext4's block size in bytes, 4096 (the default) or 1024.
# mke2fs gives a file system of 128 MiB 1 KiB blocks (mke2fs.conf's
# "small" type), whose extents start at any 1 KiB: a 4 KiB page of the
# device then holds the ends of two files, and every journal block is a
# quarter of a page. A file system on a device of today's sizes has 4 KiB
# blocks, aligned to the pages, so that is the default. The journal is
# 4 MiB with either (mke2fs would give 4 KiB blocks 16 MiB here), so that
# only the block size changes.
# PG_SECS: how long pgbench runs in the pgbench workload, in seconds
# (default 2 x SECS, below). At SCALE 4 (160 s) it writes the 128 MiB
# device only 1.7 times over (fill and initialisation included); the
# workloads with a backup or with swap write it about 3.5 and 7.6 times
# over in that time and keep it (with a backup, 400 s filled the file
# system: the database grows and each backup copies it whole).
# writes OUT/<workload>-<N>.raw (trace_pipe lines of the nvme disk only).
# The real applications (rocksdb*, dbench, pgbench*) run only with
# APP_STREAMS streams (default 8): with every count they would take the
# capture past an hour.
set -u
out=$1 streams=$2 workloads=$3 scale=${4:-1} app_streams=${5:-8}
ext4_block=${6:-4096}
case $ext4_block in 1024|4096) ;; *) echo "EXT4_BLOCK: 1024 or 4096"; exit 1 ;; esac
pg_secs=${7:-}
case $pg_secs in *[!0-9]*|0*) echo "PG_SECS: seconds, > 0"; exit 1 ;; esac
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
T=/sys/kernel/tracing
mnt=/mnt/bench
mkdir -p "$out" "$mnt"
# Per CPU: holds a whole capture (the background copy with 8 streams
# issued 590000 requests, more than 32 MiB of events), and if it does not,
# the overrun is counted and the capture fails.
echo 131072 > $T/buffer_size_kb

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

fill() {	# $1: MiB of long-lived data (72; less for a larger workload)
	fio --directory=$mnt --rw=write --bs=1m --output=/dev/null \
		--name=static --size=${1}m --name=scratch --size=40m &&
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

# About two rounds of 400 messages of 16 KiB are live at a time (about
# 12 MiB) next to the archive: 28 MiB of archive keeps it within the 40 MiB
# above (an archive of 40 MiB can run out of space).
wl_varmail() {	# fsync-heavy mail delivery and deletion; 1 in 8 archived
	"$BUILD/bench/mailsim" $mnt $(( 12 * scale )) 400 28
}

wl_dbwal() {	# WAL appends + random page overwrites + history + checkpoints
	"$BUILD/bench/dbwal" $mnt 24 16 $(( 2500 * scale ))
}

# RocksDB's own db_bench: a random fill, then overwrites whose flushes and
# compactions write SST files once and delete them whole at different
# ages, next to a short-lived write-ahead log. Sized for the 40 MiB this
# file system leaves (80000 keys of 216 bytes, 17 MiB, about 26 MiB on
# disk at the end): 1 MiB memtables and SST files and a 4 MiB level 1 so
# that compactions run through several levels; no compression, so the
# volume is the data's. Data and WAL are synced as they are written
# (bytes_per_sync, wal_bytes_per_sync: what production setups use),
# otherwise most of a short-lived WAL never leaves the page cache. About
# 8000 overwrites per second under TCG.
rocksdb() {
	db_bench --db=$mnt/rocksdb --wal_dir=$mnt/rocksdb --num=80000 \
		--key_size=16 --value_size=200 --compression_type=none \
		--write_buffer_size=1048576 --target_file_size_base=1048576 \
		--max_bytes_for_level_base=4194304 --max_background_jobs=2 \
		--bytes_per_sync=1048576 --wal_bytes_per_sync=262144 "$@" \
		>> "$out/$wl-$n.log" 2>&1
}

wl_rocksdb() {	# db_bench fillrandom, then overwrite with compactions
	rocksdb --benchmarks=fillrandom --seed=1 &&
		rocksdb --use_existing_db=1 --benchmarks=overwrite \
			--writes=$(( 240000 * scale )) --seed=2
}

# dbench: a file server's mix of creates, writes, fsyncs, renames and
# unlinks (the NetBench trace that ships with it). One client: two filled
# this file system to 97 % at their peak. Twice the fio workloads' time:
# it writes about 4 MiB/s under TCG.
wl_dbench() {
	dbench -D $mnt -c /usr/share/dbench/client.txt -t $(( 2 * secs )) 1 \
		> "$out/$wl-$n.log" 2>&1
}

# PostgreSQL 15 with pgbench: WAL (1 MiB segments, recycled), heap and
# index pages written by checkpoints every 30 s and by the background
# writer, autovacuum. The cluster is about 47 MiB after pgbench's
# initialisation at scale 1, so this workload's fill leaves 32 MiB of
# long-lived data, not 72. Four clients, synchronous commit (each commit
# waits for its WAL flush): about 70 transactions per second under TCG.
pg=/usr/lib/postgresql/15/bin
pg_up() {	# a cluster in $mnt/pg, started, initialised for pgbench
	local log="$out/$wl-$n.log"
	mkdir $mnt/pg && chown postgres: $mnt/pg &&
	runuser -u postgres -- $pg/initdb -D $mnt/pg --wal-segsize=1 \
		-A trust >> "$log" 2>&1 &&
	runuser -u postgres -- $pg/pg_ctl -D $mnt/pg -l "$log" -w \
		-o "-c listen_addresses= -c unix_socket_directories=/tmp
		    -c max_wal_size=8MB -c min_wal_size=4MB
		    -c checkpoint_timeout=30s -c shared_buffers=8MB
		    -c autovacuum_naptime=5s" start >> "$log" 2>&1 &&
	runuser -u postgres -- pgbench -h /tmp -i -s 1 -q postgres \
		>> "$log" 2>&1
}
pg_bench() {	# [SECONDS]: how long (2 x SECS)
	runuser -u postgres -- pgbench -h /tmp -c 4 -T ${1:-$(( 2 * secs ))} \
		postgres >> "$out/$wl-$n.log" 2>&1
}
pg_down() {
	runuser -u postgres -- $pg/pg_ctl -D $mnt/pg -w stop \
		>> "$out/$wl-$n.log" 2>&1
}

wl_pgbench() {
	local rc=0
	pg_up || { pg_down; return 1; }
	pg_bench "$pg_secs" || rc=1
	pg_down || rc=1
	return $rc
}

# The same next to a backup under ionice -c3 (issue 15: a copy next to an
# application): every 10 s a tar of the pgbench database's directory
# (base/5, PostgreSQL 15's fixed OID of "postgres") replaces the one
# before, so each backup is written once, sequentially, and deleted whole
# a round later, beside the heap pages and WAL that pgbench rewrites. At
# most two backups exist at a time (about 23 MiB each in a capture at
# scale 4), so with the cluster (about 47 MiB) and a fill of 8 MiB about
# 100 MiB of the 128 are in use at the peak. tar's writes are buffered, so
# the ionice class stays with tar and does not reach the device, as with
# any buffered backup; the background class is bgcopy's (direct I/O).
wl_pgbench_backup() {
	local rc=0 backup stop=/tmp/pgbench-backup.stop
	pg_up || { pg_down; return 1; }
	rm -f $stop
	(
		while [ ! -e $stop ]; do
			ionice -c3 tar cf $mnt/backup.new -C $mnt/pg base/5 \
				2>> "$out/$wl-$n.log"
			# 1: a file changed while it was read, as in any
			# backup of a live database
			[ $? -le 1 ] && sync $mnt/backup.new &&
				mv $mnt/backup.new $mnt/backup || exit 1
			# 10 s, but stop within 1 s of pgbench's end
			for _ in 1 2 3 4 5 6 7 8 9 10; do
				[ -e $stop ] && break
				sleep 1
			done
		done
	) &
	backup=$!
	pg_bench || rc=1
	touch $stop
	wait $backup || rc=1
	pg_down || rc=1
	rm -f $mnt/backup $mnt/backup.new $stop
	return $rc
}

# The same under memory pressure (issue 15: swap next to an application):
# a 24 MiB swap file on this file system and memhog in a cgroup of 16 MiB
# (as wl_swap), beside pgbench.
wl_pgbench_swap() {
	local rc=0 bench
	pg_up || { pg_down; return 1; }
	swap_up || { pg_down; return 1; }
	pg_bench &
	bench=$!
	swap_pressure $bench
	wait $bench || rc=1
	swap_down
	pg_down || rc=1
	return $rc
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

# Swap-out pressure: a 24 MiB swap file on this file system, and memhog
# touching 32 MiB again and again in a cgroup of 16 MiB while PID runs.
swap_cg=/sys/fs/cgroup/bench-swap
swap_up() {
	fallocate -l 24M $mnt/swapfile && chmod 600 $mnt/swapfile &&
		mkswap $mnt/swapfile >/dev/null && swapon $mnt/swapfile || return 1
	echo +memory > /sys/fs/cgroup/cgroup.subtree_control
	mkdir -p $swap_cg && echo 16M > $swap_cg/memory.max ||
		{ swapoff $mnt/swapfile; return 1; }
}
swap_pressure() {	# PID
	while kill -0 "$1" 2>/dev/null; do
		sh -c "echo \$\$ > $swap_cg/cgroup.procs; exec $BUILD/bench/memhog 32"
	done
}
swap_down() {
	swapoff $mnt/swapfile
	rmdir $swap_cg
}

wl_swap() {	# swap-out pressure next to data writes and a growing log
	local fio
	swap_up || return 1
	fio --directory=$mnt --ioengine=psync --bs=4k --direct=1 \
		--output=/dev/null \
		--name=data --rw=randwrite --size=8m --time_based \
		--runtime=$secs \
		--name=log --rw=write --size=8m --rate=$(rate 8) &
	fio=$!
	swap_pressure $fio
	wait $fio
	swap_down
}

# The capture checks itself: the writes the trace saw on each stream must
# be the writes nvmet counted on it (debugfs stream_stats: "stream writes
# blocks" per line), and the trace buffer must not have lost events. A
# mismatch, a lost event or a failed workload stops the bench.
stats=/sys/kernel/debug/nvmet/bench/ns1/stream_stats

# Data writes per stream in trace files $@, as "stream count" lines.
traced_writes() {
	awk '{
		for (i = 1; i <= NF; i++) if ($i == "block_rq_hints:") break
		if ($(i + 2) !~ /^W/ || $(i + 5) == 0) next
		for (j = i + 6; j <= NF; j++)
			if ($j ~ /^stream=/) n[substr($j, 8)]++
	} END { for (s in n) print s, n[s] }' "$@" | sort -n
}

# nvmet's count of writes per stream, same form, streams with none left out.
device_writes() {
	awk '$2 > 0 { print $1, $2 }' $stats | sort -n
}

lost_events() {
	cat $T/per_cpu/cpu*/stats | awk '/^(overrun|dropped events):/ { n += $NF }
		END { print n + 0 }'
}

check_capture() {	# $1: workload, $2: streams, then the trace files
	local wl=$1 n=$2 lost
	shift 2
	lost=$(lost_events)
	if [ "$lost" != 0 ]; then
		echo "   FAIL: $wl with $n streams: the trace lost $lost events"
		return 1
	fi
	if ! diff <(traced_writes "$@") <(device_writes) > "$out/$wl-$n.check"; then
		echo "   FAIL: $wl with $n streams: traced writes per stream differ from nvmet's counts:"
		sed 's/^/     /' "$out/$wl-$n.check"
		return 1
	fi
	echo "   checked: writes per stream match nvmet's counts ($(traced_writes "$@" | tr '\n' ' '))"
}

for n in $streams; do
	nvme=$(NVMET_NS_ATTRS="streams=$n" "$root/scripts/guest/nvmet-loop.sh" up /dev/ram0 bench) || exit 1
	[ -w $stats ] || { echo "no $stats (CONFIG_NVME_TARGET_DEBUGFS)"; exit 1; }
	disk=${nvme#/dev/}
	devno=$(tr : , < /sys/block/$disk/dev)
	for wl in $workloads; do
		case $wl in
		rocksdb*|dbench|pgbench*) [ "$n" = "$app_streams" ] || continue ;;
		esac
		echo "== $wl on $disk with $n streams"
		blkdiscard "$nvme" 2>/dev/null
		# WORKLOAD-xfs: the same on XFS. mkfs.xfs (xfsprogs 6.1)
		# refuses a file system under 300 MB unless fstests'
		# variables are set; they are, for the 128 MiB that the
		# simulator models. Otherwise ext4.
		case $wl in
		*-xfs)
			TEST_DIR=$mnt TEST_DEV=$nvme QA_CHECK_FS=1 \
				mkfs.xfs -q -f -K -d size=${FS_MIB}m "$nvme" ||
				exit 1 ;;
		*)
			mkfs.ext4 -q -F -m 0 -N 4096 -b "$ext4_block" -J size=4 \
				-E lazy_itable_init=0,lazy_journal_init=0,nodiscard \
				"$nvme" ${FS_MIB}M || exit 1 ;;
		esac
		# WORKLOAD-nodiscard: the same without online discard, as
		# file systems that leave it to a periodic fstrim run: what a
		# file deleted leaves valid on the device until its blocks
		# are written again.
		opts=-odiscard
		case $wl in *-nodiscard) opts= ;; esac
		mount $opts "$nvme" $mnt || exit 1
		sync
		echo > $T/trace
		echo 0 > $stats
		echo 1 > $T/events/block/block_rq_hints/enable
		# The long-lived fill goes to a trace of its own: it is written
		# once, the workload's trace is replayed several times. Both
		# stay in the trace buffer, split by a marker, and are read
		# once at the end: a reader of trace_pipe killed at the end
		# lost what it had not read yet (58 % of the writes of a
		# mixed capture under TCG), which the device check below found.
		# WORKLOAD-nodiscard and WORKLOAD-xfs run WORKLOAD.
		base=${wl%-nodiscard}
		base=${base%-xfs}
		case $base in
		pgbench|pgbench-swap) fill 32 ;;
		pgbench-backup) fill 8 ;;
		*) fill 72 ;;
		esac
		sync
		sleep 1
		echo "capture: workload starts" > $T/trace_marker
		start=$(date +%s)
		case $base in
		mixed) wl_mixed hints ;;
		mixed-nohints) wl_mixed none ;;
		*) "wl_${base//-/_}" ;;
		esac || { echo "   FAIL: workload $wl failed"; exit 1; }
		sync
		umount $mnt
		sleep 1
		echo 0 > $T/events/block/block_rq_hints/enable
		: > "$out/$wl-$n.fill.raw"
		: > "$out/$wl-$n.raw"
		awk -v dev="block_rq_hints: $devno " \
			-v fill="$out/$wl-$n.fill.raw" -v wl="$out/$wl-$n.raw" '
			index($0, "capture: workload starts") { w = 1; next }
			index($0, dev) { print > (w ? wl : fill) }' $T/trace
		echo "   $(wc -l < "$out/$wl-$n.raw") requests captured in $(( $(date +%s) - start )) s"
		check_capture "$wl" "$n" "$out/$wl-$n.fill.raw" "$out/$wl-$n.raw" ||
			exit 1
	done
	"$root/scripts/guest/nvmet-loop.sh" down bench
done
