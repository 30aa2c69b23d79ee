#!/bin/bash
# Workload: RocksDB's own db_bench on ext4: a random fill, then rounds of
# random overwrites whose flushes and compactions write SST files once
# and delete them whole at different ages, next to a short-lived
# write-ahead log. Sizes as bench/capture.sh's rocksdb workload (1 MiB
# memtables and SST files, 4 MiB level 1, no compression), with 1.5
# times the keys (about 26 MiB of data) beside an eighth of the file
# system of long-lived data; data and WAL synced as written. A
# compaction holds its inputs and outputs at once, and obsolete files
# wait for deletion: the database needs room for twice its data and
# more, which the file system keeps.
#   rocksdb.sh DEV BYTES
. "$(dirname "$0")/lib.sh"
ext4_up
fs_fill $(($(fs_size_mb) / 8))
db() {
	db_bench --db=$MNT/rocksdb --wal_dir=$MNT/rocksdb --num=120000 \
		--key_size=16 --value_size=200 --compression_type=none \
		--write_buffer_size=1048576 --target_file_size_base=1048576 \
		--max_bytes_for_level_base=4194304 --max_background_jobs=2 \
		--bytes_per_sync=1048576 --wal_bytes_per_sync=262144 "$@" >/dev/null
}
db --benchmarks=fillrandom --seed=1
seed=2
until written_enough; do
	db --use_existing_db=1 --benchmarks=overwrite --writes=200000 --seed=$seed
	seed=$((seed + 1))
done
