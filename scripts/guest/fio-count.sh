#!/bin/bash
# Inside the VM: a fixed number of 4 KiB random direct writes, then reads,
# on one device (for bench/insn-profile.sh, which counts what they cost).
#
#   fio-count.sh DEV NR_IOS
set -eu
dev=$1 n=$2
cd /tmp
for rw in randwrite randread; do
	fio --name=c --filename="$dev" --direct=1 --rw=$rw --bs=4k \
		--ioengine=psync --number_ios="$n" --size=1g \
		--output-format=terse --terse-version=3 > /dev/null
done
echo "fio-count: $n writes and $n reads on $dev"
