#!/bin/bash
# The device benchmark's workloads on a real SSD with Flexible Data
# Placement, on the kernel running now: for each run and workload, the
# namespace is filled, the workload runs for one device capacity, then two
# more are measured, and WAF = media / host bytes from the SSD's FDP
# statistics log page (22h, endurance group 1), as on FEMU
# (bench/femu/guest.sh). Boot the series, then 7.3 (or the series with
# nvme_core.streams=0), and run it once on each: the kernel is a column
# of the table (uname -r, or KERNEL_LABEL).
#
#   WIPE=yes bench/femu/real.sh [-r RUNS] [-w "WORKLOADS"] [-o TSV] /dev/nvmeXnY
#
# It destroys every byte on the namespace, and mkfs runs on it: WIPE=yes
# says you know. Needs root, nvme-cli and fio; a workload's own packages
# (PostgreSQL, MariaDB, db_bench, ...) are installed by its W.prep. A
# Streams-only SSD has no FDP log page and is refused.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../../scripts/lib.sh"
# shellcheck source=bench/femu/lib.sh
. "$ROOT/bench/femu/lib.sh"

runs=3 workloads='' tsv=$BUILD/femu/real.tsv
while getopts r:w:o: o; do
	case $o in
	r) runs=$OPTARG ;;
	w) workloads=$OPTARG ;;
	o) tsv=$OPTARG ;;
	*) die "usage: WIPE=yes real.sh [-r RUNS] [-w WORKLOADS] [-o TSV] /dev/nvmeXnY" ;;
	esac
done
shift $((OPTIND - 1))
[ $# = 1 ] || die "usage: WIPE=yes real.sh [-r RUNS] [-w WORKLOADS] [-o TSV] /dev/nvmeXnY"
dev=$1
disk=${dev#/dev/}
# A namespace's block device (nvmeXnY, with an nsid), not a controller, a
# partition or another kind of disk.
case $disk in nvme*n*) ;; *) die "$dev: not an NVMe namespace" ;; esac
[ -b "$dev" ] && [ -e "/sys/block/$disk/nsid" ] || die "$dev: not an NVMe namespace"
[ "${WIPE:-}" = yes ] || die "$dev: every byte on it is destroyed; say WIPE=yes"
[ "$(id -u)" = 0 ] || die "real.sh: run as root"
grep -qs "^$dev " /proc/mounts && die "$dev is mounted"
# Admin commands go through the namespace's node: with native multipath
# its disk's device is the subsystem, which has no node to send them to.
nvme get-log "$dev" --log-id=0x22 --lsi=1 --log-len=64 -b > /dev/null ||
	die "$dev: no FDP statistics log page (22h) for endurance group 1"
[ -n "$workloads" ] || workloads=$(femu_workloads)
mkdir -p "$BUILD/femu/bin"
${CC:-cc} -O2 -Wall -o "$BUILD/femu/bin/memhog" "$ROOT/bench/memhog.c"
kernel=${KERNEL_LABEL:-$(uname -r)}
header=$FEMU_TSV_HEADER
# What a workload leaves on the SSD (its file system; a swap file if its
# teardown failed) is released before the next one, which mkfs's the
# namespace; what cannot be released stops the run.
release() {
	local f
	for f in $(swapon --show=NAME --noheadings); do
		case $f in /mnt/femu/*) swapoff "$f" || die "real: $1 left swap on $f" ;; esac
	done
	if findmnt -rn -S "$dev" > /dev/null; then
		umount "$dev" || die "real: $1 left $dev mounted (busy)"
	fi
}
mkdir -p "$(dirname "$tsv")"
[ -s "$tsv" ] || echo "$header" > "$tsv"
for ((r = 1; r <= runs; r++)); do
	for w in $workloads; do
		out=$BUILD/femu/runs/real/$kernel-$w-run$r
		femu_prep "$w"
		rm -rf "$out"
		mkdir -p "$out"
		(cd "$out" && BENCH_DEV=$dev BUILD=$BUILD bash "$ROOT/bench/femu/guest.sh" "$w" 1 2) ||
			die "run $r, $w: failed (see $out)"
		release "$w"
		awk -v r=$r -v w="$w" -v k="$kernel" -v mb=$(( $(cat "/sys/block/$disk/size") / 2048 )) '
			{ v[$1] = $2 }
			END {
				printf "%s\t-\t%s\t%s\t-\t%s\t%s\t%s\t%s\t%s\t%.4f\t%.0f\n", r, w, k, mb,
					v["warm.host_bytes"], v["warm.media_bytes"],
					v["measure.host_bytes"], v["measure.media_bytes"],
					v["measure.media_bytes"] / v["measure.host_bytes"], v["measure.secs"]
			}' "$out/result.txt" >> "$tsv"
		log "real: run $r, $w on $kernel: WAF $(tail -n1 "$tsv" | cut -f11)"
	done
done
