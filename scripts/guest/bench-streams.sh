#!/bin/bash
# Inside the VM: what the derived write stream costs on a device that has
# streams. nvmet over the loop transport on a RAM disk completes every
# request inside the guest, so under instruction counting (vm.sh --icount)
# fio's IOPS are 10^9 over the guest instructions per I/O, host driver and
# target together. Four states of one boot, in this order:
#   never   a namespace without streams, before any device with streams
#           existed (the static keys that gate the file stream hash and
#           the derivation are still off);
#   on      a namespace with NSTREAMS streams: every write is given one;
#   rate    the same with write_stream_files "rate": files by write rate;
#   off     the same namespace with streams turned off at the host
#           (/sys/class/nvme/<ctrl>/streams = 0): keys on, limit 0.
# One line per job:  <state> <engine> <rw> <jobs> <iops>
# Each state checks that the device got what it says (nvmet's stream_stats:
# writes with a stream, or none), so a state that silently is not what it
# claims stops the run.
set -u
nstreams=${NSTREAMS:-16}
loop=$(dirname "$0")/nvmet-loop.sh
# nvmet's counters: debugfs (CONFIG_NVME_TARGET_DEBUGFS)
dbg=/sys/kernel/debug/nvmet
cd /tmp || exit 1

die() { echo "bench-streams: $*" >&2; exit 1; }

# brd and nvmet are built in (scripts/vm.sh: /dev/ram0, 256 MiB). brd
# allocates a page at its first write: fill the disk first, so that no
# state pays for allocations the others do not.
[ -b /dev/ram0 ] || die "no /dev/ram0"
dd if=/dev/zero of=/dev/ram0 bs=1M oflag=direct status=none \
	count=$(($(blockdev --getsize64 /dev/ram0) >> 20)) || die "dd"

# Writes only: reads carry no stream.
run_fio() {	# state dev
	RWS=randwrite "$(dirname "$0")/bench-fio.sh" "$1=$2" ||
		die "$1: fio failed"
}

# Writes the namespace counted with a stream and without one.
stream_writes() {	# nqn -> "<with> <without>"
	# one "<stream> <writes> <blocks>" line per stream, 0: no stream
	awk '$1 == 0 { n += $2; next } { s += $2 }
		END { printf "%d %d\n", s, n }' "$dbg/$1/ns1/stream_stats"
}

limit() { cat "/sys/block/$(basename "$1")/queue/max_write_streams"; }

# never: no device with streams has existed in this boot.
dev=$(NVMET_NS_ATTRS="streams=0" "$loop" up /dev/ram0 never) || die "nvmet up"
[ "$(limit "$dev")" = 0 ] || die "never: $dev offers streams"
run_fio never "$dev"
"$loop" down never

dev=$(NVMET_NS_ATTRS="streams=$nstreams" "$loop" up /dev/ram0 streams) ||
	die "nvmet up"
[ "$(limit "$dev")" = "$nstreams" ] || die "on: $dev offers $(limit "$dev") streams"
echo 1 > "$dbg/streams/ns1/stream_stats"
run_fio on "$dev"
read -r with without < <(stream_writes streams)
[ "$with" -gt 0 ] && [ "$without" = 0 ] ||
	die "on: nvmet counted $with writes with a stream, $without without"

# rate: the same with write_stream_files "rate": each write also counts
# its file's rate (the block device's own file stream ID).
files=/sys/block/$(basename "$dev")/queue/write_stream_files
echo rate > "$files" || die "cannot set write_stream_files"
echo 1 > "$dbg/streams/ns1/stream_stats"
run_fio rate "$dev"
echo id > "$files" || die "cannot reset write_stream_files"
read -r with without < <(stream_writes streams)
[ "$with" -gt 0 ] && [ "$without" = 0 ] ||
	die "rate: nvmet counted $with writes with a stream, $without without"

ctrl=$(basename "$dev" | sed 's/n[0-9]*$//')
echo 0 > "/sys/class/nvme/$ctrl/streams" || die "cannot turn streams off"
[ "$(limit "$dev")" = 0 ] || die "off: $dev still offers streams"
echo 1 > "$dbg/streams/ns1/stream_stats"
run_fio off "$dev"
read -r with without < <(stream_writes streams)
[ "$with" = 0 ] && [ "$without" -gt 0 ] ||
	die "off: nvmet counted $with writes with a stream, $without without"
"$loop" down streams
