#!/bin/bash
# Workload: the mixed one. PostgreSQL 15 under pgbench (heap and index
# pages, its write-ahead log, checkpoints every 30 s), a backup of the
# database under ionice -c3 every 10 s that replaces the one before
# (written once, deleted whole a round later), and swap: a swap file on
# the same ext4 and memhog in a cgroup of 16 MiB touching 32 MiB again and
# again. The sizes are those of bench/capture.sh's pgbench workloads, less
# what does not fit beside each other there: one backup at a time, a swap
# file of 16 MiB, and pgbench's history table emptied between rounds of
# 20 s (TRUNCATE: a new file, the old one deleted), as the database would
# otherwise grow without bound.
#   pgbench-mix.sh DEV BYTES
. "$(dirname "$0")/lib.sh"
pg=/usr/lib/postgresql/15/bin
cg=/sys/fs/cgroup/femu-swap
stop=/tmp/femu-mix.stop
ext4_up
mkdir $MNT/pg && chown postgres: $MNT/pg
runuser -u postgres -- $pg/initdb -D $MNT/pg --wal-segsize=1 -A trust >/dev/null
runuser -u postgres -- $pg/pg_ctl -D $MNT/pg -l /tmp/femu-pg.log -w \
	-o "-c listen_addresses= -c unix_socket_directories=/tmp
	    -c max_wal_size=8MB -c min_wal_size=4MB -c checkpoint_timeout=30s
	    -c shared_buffers=8MB -c autovacuum_naptime=5s" start
# Teardown fails the workload when a piece of it failed or cannot be
# undone: a backup that stopped early measured another workload, and a
# swap file or a server left running would keep the device busy.
backup='' hog=''
cleanup() {
	local rc=$?
	touch $stop
	if [ -n "$backup" ]; then wait "$backup" || { echo "pgbench-mix: the backup failed" >&2; rc=1; }; fi
	if [ -n "$hog" ]; then wait "$hog" || rc=1; fi
	if awk -v f=$MNT/swapfile '$1 == f { s = 1 } END { exit !s }' /proc/swaps; then
		swapoff $MNT/swapfile || rc=1
	fi
	if [ -d $cg ]; then rmdir $cg || rc=1; fi
	runuser -u postgres -- $pg/pg_ctl -D $MNT/pg -w stop >/dev/null || rc=1
	exit $rc
}
trap cleanup EXIT
runuser -u postgres -- pgbench -h /tmp -i -s 1 -q postgres
fallocate -l 16M $MNT/swapfile
chmod 600 $MNT/swapfile
mkswap $MNT/swapfile >/dev/null
swapon $MNT/swapfile
echo +memory > /sys/fs/cgroup/cgroup.subtree_control
mkdir -p $cg
echo 16M > $cg/memory.max
rm -f $stop
(	# the backup
	while [ ! -e $stop ]; do
		# tar exits 1 when a file changed while read: a live database
		rm -f $MNT/backup
		ionice -c3 tar cf $MNT/backup.new -C $MNT/pg base/5 2>/dev/null ||
			[ $? = 1 ] || exit 1
		sync $MNT/backup.new
		mv $MNT/backup.new $MNT/backup
		for _ in 1 2 3 4 5 6 7 8 9 10; do
			[ -e $stop ] && break
			sleep 1
		done
	done
) &
backup=$!
(	# the memory pressure
	while [ ! -e $stop ]; do
		sh -c "echo \$\$ > $cg/cgroup.procs; exec $BUILD/femu/bin/memhog 32" || true
	done
) &
hog=$!
until written_enough; do
	kill -0 $backup 2>/dev/null || exit 1	# cleanup says why
	runuser -u postgres -- pgbench -h /tmp -c 4 -T 20 postgres >/dev/null
	runuser -u postgres -- psql -h /tmp -q -c 'TRUNCATE pgbench_history' postgres
done
