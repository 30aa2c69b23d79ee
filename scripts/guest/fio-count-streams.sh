#!/bin/bash
# Inside the VM: a fixed number of 4 KiB random direct writes on an nvmet
# loop namespace with NSTREAMS (16) streams, for bench/insn-profile.sh
# (PROFILE=rate and PROFILE=derive), which counts what they cost. STATE:
#   id    write_stream_files "id" (the default): every write derives a
#         stream;
#   rate  write_stream_files "rate": the same, files by write rate;
#   off   streams turned off at the host (/sys/class/nvme/<ctrl>/streams
#         = 0): the static keys are on, the limit is 0, nothing derives.
# nvmet's per-stream counters must have every write with a stream (off:
# none), or the run is not what it claims.
#
#   fio-count-streams.sh STATE NR_IOS
set -eu
state=$1 n=$2
loop=$(dirname "$0")/nvmet-loop.sh
dbg=/sys/kernel/debug/nvmet
cd /tmp
die() { echo "fio-count-streams: $*" >&2; exit 1; }

# brd allocates a page at its first write: fill it, as bench-streams.sh does.
dd if=/dev/zero of=/dev/ram0 bs=1M oflag=direct status=none \
	count=$(($(blockdev --getsize64 /dev/ram0) >> 20)) || die "dd"
dev=$(NVMET_NS_ATTRS="streams=${NSTREAMS:-16}" "$loop" up /dev/ram0 streams) ||
	die "nvmet up"
queue=/sys/block/$(basename "$dev")/queue
[ "$(cat $queue/max_write_streams)" = "${NSTREAMS:-16}" ] ||
	die "$dev does not offer ${NSTREAMS:-16} streams"
case $state in
id|rate)
	echo "$state" > $queue/write_stream_files ||
		die "cannot set write_stream_files to $state"
	want_with=$n want_without=0 ;;
off)
	ctrl=$(basename "$dev" | sed 's/n[0-9]*$//')
	echo 0 > "/sys/class/nvme/$ctrl/streams" || die "cannot turn streams off"
	[ "$(cat $queue/max_write_streams)" = 0 ] || die "$dev still offers streams"
	want_with=0 want_without=$n ;;
*)	die "STATE: id, rate or off" ;;
esac
echo 1 > "$dbg/streams/ns1/stream_stats"
fio --name=c --filename="$dev" --direct=1 --rw=randwrite --bs=4k \
	--ioengine=psync --size=128m --io_size=$((n * 4))k \
	--output-format=terse --terse-version=3 > /dev/null || die "fio"
# one "<stream> <writes> <blocks>" line per stream, 0: no stream
read -r with without < <(awk '$1 == 0 { n += $2; next } { s += $2 }
	END { printf "%d %d\n", s, n }' "$dbg/streams/ns1/stream_stats")
[ "$with" = "$want_with" ] && [ "$without" = "$want_without" ] ||
	die "$state: nvmet counted $with writes with a stream, $without without"
echo "fio-count-streams: $n writes on $dev, $state"
