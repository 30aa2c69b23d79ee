#!/bin/bash
# Held-out application 2 (bench/femu/held-out.md): SQLite's own benchmark,
# speedtest1, with a write-ahead log, on ext4; a new database file each
# repetition, the previous one deleted. --size 100: the held-out list's 200
# scaled to the namespace (at 200 the database and its log peak at about
# 103 MiB, more than the file system holds).
#   sqlite-speedtest1.sh DEV BYTES
. "$(dirname "$0")/lib.sh"
ext4_up
until written_enough; do
	rm -f $MNT/speedtest1.db $MNT/speedtest1.db-wal $MNT/speedtest1.db-shm
	"$BUILD/femu/bin/speedtest1" --journal wal --size 100 $MNT/speedtest1.db >/dev/null
done
