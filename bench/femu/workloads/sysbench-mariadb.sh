#!/bin/bash
# Held-out application 1 (bench/femu/held-out.md): sysbench's
# oltp_write_only on MariaDB (InnoDB), its data directory on ext4. Debian's
# configuration, except the buffer pool (64 MiB) and, scaled to the
# namespace, the redo log (16 MiB; 10.11's default of 96 MiB is most of
# it) and the tables (4 of 12500 rows, about 24 MiB).
#   sysbench-mariadb.sh DEV BYTES
. "$(dirname "$0")/lib.sh"
sock=/run/mysqld/mysqld.sock
opts=(--innodb-buffer-pool-size=64M --innodb-log-file-size=16M)
sb=(sysbench oltp_write_only --db-driver=mysql "--mysql-socket=$sock"
	--mysql-user=root --tables=4 --table-size=12500)
ext4_up
mkdir -p $MNT/mysql /run/mysqld
chown mysql: $MNT/mysql /run/mysqld
# As mysql: as root it chowns its PAM helper, on the read-only root.
runuser -u mysql -- mariadb-install-db --datadir=$MNT/mysql --skip-test-db "${opts[@]}" >/dev/null
mariadbd --user=mysql --datadir=$MNT/mysql "${opts[@]}" > /tmp/femu-mariadb.log 2>&1 &
db=$!
cleanup() {
	local rc=$?
	mariadb-admin -S $sock shutdown || kill $db
	wait $db || true
	[ $rc = 0 ] || tail -n 20 /tmp/femu-mariadb.log >&2
}
trap cleanup EXIT
for _ in $(seq 240); do
	mariadb-admin -S $sock ping >/dev/null 2>&1 && break
	kill -0 $db || { cat /tmp/femu-mariadb.log >&2; exit 1; }
	sleep 0.5
done
mariadb -S $sock -e 'CREATE DATABASE sbtest'
"${sb[@]}" prepare >/dev/null
until written_enough; do
	"${sb[@]}" --threads=4 --time=20 run >/dev/null
done
