#!/bin/bash
# Workload: the fio job a user runs on a multi-stream SSD, on ext4: three
# files of different lifetimes written at the same time, synced as
# programs do. A third of the file system is long-lived data written once; a
# hot file of 8 % of it is overwritten at random at full speed, a warm
# file of 16 % at random with half the hot one's volume, and a cold file of
# 16 % is written sequentially once a round and deleted two rounds later.
# No write hints: what the kernel derives (or not) is all the device gets.
# With HINTS=1 (fio-hotcold-hints.sh), the application says what it
# knows: fio sets each file's lifetime hint (F_SET_RW_HINT: short,
# medium, extreme).
#   fio-hotcold.sh DEV BYTES
. "$(dirname "$0")/lib.sh"
h1='' h2='' h3=''
if [ "${HINTS:-0}" = 1 ]; then
	h1=--write_hint=short h2=--write_hint=medium h3=--write_hint=extreme
fi
ext4_up
size=$(fs_size_mb)
fs_fill $((size / 3))
hot=$((size * 8 / 100)) warm=$((size * 16 / 100)) cold=$((size * 16 / 100))
round=0
until written_enough; do
	round=$((round + 1))
	rm -f $MNT/cold.$((round - 2)).*
	fio --directory=$MNT --ioengine=psync --bs=4k --output=/dev/null \
		--fsync=64 --randrepeat=0 \
		--name=hot --filename=hot --rw=randwrite --size=${hot}m \
		--io_size=$((hot * 4))m $h1 \
		--name=warm --filename=warm --rw=randwrite --size=${warm}m \
		--io_size=${warm}m $h2 \
		--name=cold.$round --rw=write --size=${cold}m --bs=64k $h3
done
