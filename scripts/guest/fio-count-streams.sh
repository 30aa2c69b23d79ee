#!/bin/bash
# Inside the VM: a fixed number of 4 KiB random direct writes on an nvmet
# loop namespace with NSTREAMS (16) streams, its write_stream_files set to
# FILES (id or rate), for bench/insn-profile.sh PROFILE=rate, which counts
# what they cost. nvmet's per-stream counters must have every write with
# a stream, or the run is not what it claims.
#
#   fio-count-streams.sh FILES NR_IOS
set -eu
files=$1 n=$2
loop=$(dirname "$0")/nvmet-loop.sh
dbg=/sys/kernel/debug/nvmet
cd /tmp
die() { echo "fio-count-streams: $*" >&2; exit 1; }

# brd allocates a page at its first write: fill it, as bench-streams.sh does.
dd if=/dev/zero of=/dev/ram0 bs=1M oflag=direct status=none \
	count=$(($(blockdev --getsize64 /dev/ram0) >> 20)) || die "dd"
dev=$(NVMET_NS_ATTRS="streams=${NSTREAMS:-16}" "$loop" up /dev/ram0 streams) ||
	die "nvmet up"
[ "$(cat "/sys/block/$(basename "$dev")/queue/max_write_streams")" = \
	"${NSTREAMS:-16}" ] || die "$dev does not offer ${NSTREAMS:-16} streams"
echo "$files" > "/sys/block/$(basename "$dev")/queue/write_stream_files" ||
	die "cannot set write_stream_files to $files"
echo 1 > "$dbg/streams/ns1/stream_stats"
fio --name=c --filename="$dev" --direct=1 --rw=randwrite --bs=4k \
	--ioengine=psync --size=128m --io_size=$((n * 4))k \
	--output-format=terse --terse-version=3 > /dev/null || die "fio"
# one "<stream> <writes> <blocks>" line per stream, 0: no stream
read -r with without < <(awk '$1 == 0 { n += $2; next } { s += $2 }
	END { printf "%d %d\n", s, n }' "$dbg/streams/ns1/stream_stats")
[ "$with" = "$n" ] && [ "$without" = 0 ] ||
	die "$files: nvmet counted $with writes with a stream, $without without"
echo "fio-count-streams: $n writes on $dev with write_stream_files $files"
