#!/bin/bash
# Workload: 4 KiB random overwrite of the whole namespace, O_DIRECT,
# io_uring at depth 16, uniform (no random map), BYTES in all.
#   fio-randwrite.sh DEV BYTES
set -euo pipefail
exec fio --name=randwrite --filename="$1" --rw=randwrite --bs=4k --direct=1 \
	--ioengine=io_uring --iodepth=16 --norandommap --randrepeat=0 \
	--size=100% --io_size="$2" --output=/dev/null
