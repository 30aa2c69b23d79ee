#!/bin/bash
# Inside the VM: fio 4 KiB random I/O on null_blk, one line per job:
#   <engine> <rw> <jobs> <iops>
# RUNTIME (seconds per job, default 3) sets the length.
set -u
dev=/dev/nullb0
runtime=${RUNTIME:-3}
cd /tmp || exit 1
for engine in psync io_uring; do
	depth=1
	[ $engine = io_uring ] && depth=16
	for rw in randwrite randread; do
		for jobs in 1 2; do
			# terse v3: field 8 is read IOPS, field 49 write IOPS
			line=$(fio --name=b --filename=$dev --direct=1 --rw=$rw \
				--bs=4k --ioengine=$engine --iodepth=$depth \
				--numjobs=$jobs --group_reporting --time_based \
				--runtime="$runtime" --ramp_time=1 \
				--output-format=terse --terse-version=3 2>/dev/null)
			if [ $rw = randwrite ]; then
				iops=$(echo "$line" | cut -d';' -f49)
			else
				iops=$(echo "$line" | cut -d';' -f8)
			fi
			echo "$engine $rw $jobs ${iops:-0}"
		done
	done
done
