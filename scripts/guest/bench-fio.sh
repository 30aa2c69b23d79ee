#!/bin/bash
# Inside the VM: fio 4 KiB random I/O on each device given, one line per
# job:
#   <name> <engine> <rw> <jobs> <iops>
#
#   bench-fio.sh NAME=DEV...     e.g. nullb=/dev/nullb0 nvme=/dev/nvme0n1
# RUNTIME (seconds per job, default 3) sets the length; RWS the patterns
# (default "randwrite randread"). Writes come before reads so that reads
# of a real device (QEMU's NVMe) find written blocks.
set -u
runtime=${RUNTIME:-3}
rws=${RWS:-randwrite randread}
cd /tmp || exit 1
for spec in "$@"; do
	name=${spec%%=*} dev=${spec#*=}
	[ -b "$dev" ] || { echo "bench-fio: no block device $dev" >&2; exit 1; }
	for engine in psync io_uring; do
		depth=1
		[ $engine = io_uring ] && depth=16
		for rw in $rws; do
			for jobs in 1 2; do
				# terse v3: field 8 is read IOPS, field 49 write IOPS
				line=$(fio --name=b --filename="$dev" --direct=1 \
					--rw="$rw" --bs=4k --ioengine=$engine \
					--iodepth=$depth --numjobs=$jobs \
					--group_reporting --time_based \
					--runtime="$runtime" --ramp_time=1 \
					--output-format=terse --terse-version=3 2>/dev/null)
				if [ "$rw" = randwrite ]; then
					iops=$(echo "$line" | cut -d';' -f49)
				else
					iops=$(echo "$line" | cut -d';' -f8)
				fi
				echo "$name $engine $rw $jobs ${iops:-0}"
			done
		done
	done
done
