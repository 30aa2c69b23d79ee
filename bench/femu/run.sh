#!/bin/bash
# One workload on a fresh FEMU FDP SSD (its own FTL and garbage
# collection), one kernel, one boot: the write amplification FEMU reports.
#
#   bench/femu/run.sh [options]
#     --kernel K      series (build/obj, default), series-off (the same kernel
#                     with placement switched off: nvme_core.streams=0),
#                     base (build/obj-base) or a bzImage
#     --op PCT        over-provisioning, in percent (default 7): (usable
#                     flash - namespace) / namespace, where the usable flash
#                     is what FEMU's FTL can fill with data (below)
#     --ns-mb MB      the namespace in MiB (default 109); the flash is the
#                     fewest reclaim units that give it OP, so every OP
#                     level runs the workloads on the same file system
#     --flash-mb MB   instead: FEMU's flash in MiB, the namespace follows
#                     from OP
#     --ru-kb KB      reclaim unit (FEMU's superblock) in KiB, a multiple of
#                     16 (default 512)
#     --workload W    probe, or bench/femu/workloads/W.sh (default
#                     fio-randwrite)
#     --warm N        device-capacity writes of the workload before measuring
#                     (default 1)
#     --measure N     device-capacity writes measured (default 2)
#     --gc LOW/HIGH   FEMU's gc_thres_pcent/gc_thres_pcent_high (default 95/98)
#     --out DIR       default build/femu/runs/KERNEL-W-opPCT
#     --timeout SECS  for the whole VM (default 3600)
#     --trace         record every request in OUT/trace.raw (the series'
#                     block_rq_hints event) for bench/femu/sim-compare.sh
#
# The device: one FEMU controller (model "FEMU BlackBox-SSD Controller") in
# an FDP subsystem with 8 reclaim unit handles in one reclaim group;
# geometry 2 channels x 2 LUNs x 1 plane, RU_KB/16 pages of 4 KiB a block,
# so a superblock (FEMU's GC unit and one reclaim unit) is RU_KB and the
# flash has FLASH_MB*1024/RU_KB of them; NAND latencies 0 (only the
# counters matter). GC thresholds 95/98: FEMU's GC runs when at most 5 %
# of the reclaim units are free, taking then only units at least 1/8
# invalid, and at 2 % it stalls writes and takes the unit with the
# fewest valid pages whatever it holds: greedy. FEMU's defaults (75/95)
# make its background GC reclaim units that are only 1/8 invalid,
# whatever the placement.
#
# Usable flash: FEMU's background GC keeps 1 + 5 % of the units free
# (rounded down) as long as victims are 1/8 invalid, which they are at
# these levels of spare; one open unit per handle from the start and one
# for GC. The rest is what data can fill, and OP is taken against it, as
# sim/ftl-sim takes it against what its own reserve leaves. (With 2 MiB
# units on 512 MiB, a nominal 7 % left greedy about 1.5 %: WAF 33 on a
# random overwrite.)
#
# In the guest (bench/femu/guest.sh): the namespace filled once
# sequentially, WARM capacity-writes of the workload, then MEASURE more;
# WAF = media bytes / host bytes of the measured part, from the FDP
# statistics log page (22h), read before and after each phase.
#
# FEMU is built by bench/femu/build.sh (FEMU_SRC). Its poller and FTL
# threads spin: a FEMU VM takes about two host cores; run one at a time.
# QEMU runs under nice -n 19. Prints the results (OUT/result.txt) and the
# wall time.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../../scripts/lib.sh"
# shellcheck source=bench/femu/lib.sh
. "$ROOT/bench/femu/lib.sh"

KSEL=series
OP=7
NS_MB=109
FLASH_MB=''
RU_KB=512
WL=fio-randwrite
WARM=1
MEASURE=2
GC=95/98
OUT=
TIMEOUT=3600
TRACE=0
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) KSEL=$2; shift 2 ;;
	--op) OP=$2; shift 2 ;;
	--ns-mb) NS_MB=$2 FLASH_MB=''; shift 2 ;;
	--flash-mb) FLASH_MB=$2 NS_MB=''; shift 2 ;;
	--ru-kb) RU_KB=$2; shift 2 ;;
	--workload) WL=$2; shift 2 ;;
	--warm) WARM=$2; shift 2 ;;
	--measure) MEASURE=$2; shift 2 ;;
	--gc) GC=$2; shift 2 ;;
	--out) OUT=$2; shift 2 ;;
	--timeout) TIMEOUT=$2; shift 2 ;;
	--trace) TRACE=1; shift ;;
	*) die "usage: run.sh [--kernel series|series-off|base|FILE] [--op PCT] [--ns-mb MB | --flash-mb MB] [--ru-kb KB] [--workload W] [--warm N] [--measure N] [--gc LOW/HIGH] [--out DIR] [--timeout SECS] [--trace]" ;;
	esac
done
KAPPEND=
case $KSEL in
series) KERNEL=$OBJ/arch/x86/boot/bzImage ;;
series-off) KERNEL=$OBJ/arch/x86/boot/bzImage KAPPEND=nvme_core.streams=0 ;;
base) KERNEL=$BUILD/obj-base/arch/x86/boot/bzImage ;;
*) KERNEL=$KSEL; KSEL=$(basename "$KSEL") ;;
esac
[ -f "$KERNEL" ] || die "no kernel at $KERNEL"
[ "$WL" = probe ] || [ -x "$ROOT/bench/femu/workloads/$WL.sh" ] ||
	die "no workload bench/femu/workloads/$WL.sh"
case $NS_MB$FLASH_MB$RU_KB$OP in *[!0-9]*) die "--ns-mb, --flash-mb, --ru-kb, --op: whole numbers" ;; esac
[ $((RU_KB % 16)) = 0 ] && [ "$RU_KB" -ge 64 ] || die "--ru-kb: a multiple of 16, at least 64"
[ -z "$FLASH_MB" ] || [ $((FLASH_MB * 1024 % RU_KB)) = 0 ] ||
	die "--flash-mb must be a multiple of --ru-kb"
[ "$WL" = probe ] || [ "$MEASURE" -ge 2 ] ||
	log "femu: warning: --measure $MEASURE: steady state wants at least 2 device writes"
case $GC in [0-9]*/[0-9]*) ;; *) die "--gc LOW/HIGH, e.g. 95/98" ;; esac
GC_LOW=${GC%/*} GC_HIGH=${GC#*/}
PGS=$((RU_KB / 16))			# pages of 4 KiB a block
NRUH=8
usable() { echo $(($1 - ($1 * (100 - GC_LOW) / 100 + 1) - NRUH - 1)); }
if [ -n "$FLASH_MB" ]; then
	BLKS=$((FLASH_MB * 1024 / RU_KB))	# reclaim units
	USABLE=$(usable $BLKS)
	NS_MB=$((USABLE * RU_KB * 100 / (100 + OP) / 1024))
else
	need=$(((NS_MB * 1024 * (100 + OP) + 100 * RU_KB - 1) / (100 * RU_KB)))
	BLKS=$need
	while [ "$(usable $BLKS)" -lt "$need" ]; do BLKS=$((BLKS + 1)); done
	USABLE=$(usable $BLKS)
fi
[ "$USABLE" -ge $((BLKS / 2)) ] || die "femu: too few reclaim units ($BLKS) for 8 handles and GC"
FLASH=$(echo "scale=1; $BLKS * $RU_KB / 1024" | bc)	# MiB
OUT=${OUT:-$BUILD/femu/runs/$KSEL-$WL-op$OP}
start=$(date +%s)

FEMU=$("$ROOT/bench/femu/build.sh" | tail -n1)
# The probe's io_uring writer, against the uapi headers of the series
# (sqe->write_stream; the struct layout is 7.3's).
bin=$BUILD/femu/bin
mkdir -p "$bin"
hdr=$OBJ/usr/include
if [ ! -x "$bin/uring_write" ] || [ "$ROOT/bench/femu/uring_write.c" -nt "$bin/uring_write" ]; then
	grep -qs write_stream "$hdr/linux/io_uring.h" ||
		die "no uapi headers with write_stream in $hdr (make -C build/linux O=build/obj headers)"
	${CC:-cc} -O2 -Wall -isystem "$hdr" -o "$bin/uring_write" "$ROOT/bench/femu/uring_write.c"
fi

if [ ! -x "$bin/memhog" ] || [ "$ROOT/bench/memhog.c" -nt "$bin/memhog" ]; then
	${CC:-cc} -O2 -Wall -o "$bin/memhog" "$ROOT/bench/memhog.c"
fi

[ "$WL" = probe ] || femu_prep "$WL"

mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
rm -f "$OUT/result.txt" "$OUT/device.txt" "$OUT/probe.txt" "$OUT/trace.raw"
cp "$KERNEL" "$OUT/bzImage"	# others may rebuild build/obj meanwhile

# shellcheck disable=SC2054 # commas separate QEMU's suboptions
FEMU_ARGS=(
	-L "$BUILD/femu/src/pc-bios" -L /usr/share/seabios -L /usr/share/qemu -nic none
	-device "femu-subsys,id=fdp0,nqn=fdp0,fdp=on,fdp.nruh=$NRUH,fdp.nrg=1,fdp.nru=$BLKS,fdp.runs=${RU_KB}K"
	-device "femu,subsys=fdp0,devsz_mb=$NS_MB,femu_mode=1,secsz=512,secs_per_pg=8,pgs_per_blk=$PGS,blks_per_pl=$BLKS,pls_per_lun=1,luns_per_ch=2,nchs=2,pg_rd_lat=0,pg_wr_lat=0,blk_er_lat=0,ch_xfer_lat=0,gc_thres_pcent=$GC_LOW,gc_thres_pcent_high=$GC_HIGH"
)
for a in "${FEMU_ARGS[@]}"; do
	case $a in *[[:space:]*?[\\]*) die "femu: QEMU argument '$a' has a blank or a glob character" ;; esac
done

log "femu: $KSEL kernel, $WL, flash $FLASH MiB in $BLKS units of $RU_KB KiB ($USABLE usable), namespace ${NS_MB} MiB (OP $OP %), GC $GC, warm $WARM, measure $MEASURE; out $OUT"
set +e
VM_QEMU=$FEMU VM_QEMU_ARGS="${FEMU_ARGS[*]}" nice -n 19 \
	"$ROOT/scripts/vm.sh" --out "$OUT" --kernel "$OUT/bzImage" --timeout "$TIMEOUT" --mem 1024 \
	${KAPPEND:+--append "$KAPPEND"} -- \
	env TRACE=$TRACE bash "$ROOT/bench/femu/guest.sh" "$WL" "$WARM" "$MEASURE"
rc=$?
set -e
secs=$(( $(date +%s) - start ))
{
	echo "kernel_sel $KSEL"
	echo "kernel_append ${KAPPEND:-none}"
	echo "op_pct $OP"
	echo "flash_mb $FLASH"
	echo "ru_kb $RU_KB"
	echo "usable_rus $USABLE"
	echo "namespace_mb $NS_MB"
	echo "gc_thres $GC"
	echo "wall_secs $secs"
} >> "$OUT/result.txt"
[ "$WL" = probe ] || cat "$OUT/result.txt"
waf=$(sed -n 's/^measure.waf //p' "$OUT/result.txt")
log "femu: $KSEL $WL OP $OP %: ${waf:+WAF $waf, }exit $rc in $((secs / 60)) min $((secs % 60)) s"
exit "$rc"
