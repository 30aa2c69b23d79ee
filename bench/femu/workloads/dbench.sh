#!/bin/bash
# Workload: dbench, a file server's creates, writes, fsyncs, renames and
# unlinks (the NetBench trace it ships), one client, on ext4 with a
# third of it long-lived data.
#   dbench.sh DEV BYTES
. "$(dirname "$0")/lib.sh"
ext4_up
fs_fill $(($(fs_size_mb) / 3))
until written_enough; do
	dbench -D $MNT -c /usr/share/dbench/client.txt -t 20 1 >/dev/null
done
