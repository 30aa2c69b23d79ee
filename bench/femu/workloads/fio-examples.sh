#!/bin/bash
# Held-out application 4 (bench/femu/held-out.md): fio's example job files,
# on the namespace itself. The examples that write through the io_uring,
# libaio or psync engine (or fio's default, psync) to a block device or a
# file, in name order, again and again until the workload's budget; each
# job file unchanged except that filename= is the namespace and size= its
# size (a [global] section put first; the file's own filename=,
# directory= and size= lines dropped). A job file that fails is reported
# in the log (its last lines) and not run again; fio is stopped when the
# budget is reached.
#   fio-examples.sh DEV BYTES
. "$(dirname "$0")/lib.sh"
examples="basic-verify cmdprio-bssplit cross-stripe-verify dedupe-global
	enospc-pressure fio-rand-RW fio-rand-write fio-seq-RW fio-seq-write
	flow fsx iometer-file-access-server jesd219 ssd-steadystate ssd-test
	steadystate tiobench-example waitfor zbd-rand-write"
size=$(blockdev --getsize64 "$DEV")
work=/tmp/femu-fio
mkdir -p $work
cd $work || exit 1
declare -A failed=()
while ! written_enough; do
	ran=0	# a round in which every job file failed writes nothing
	for ex in $examples; do
		[ -n "${failed[$ex]:-}" ] && continue
		{
			printf '[global]\nfilename=%s\nsize=%s\n' "$DEV" "$size"
			sed -E '/^[[:space:]]*(filename|directory|size)[[:space:]]*=/d' \
				"$BUILD/femu/fio-examples/$ex.fio"
		} > "$ex.fio"
		echo "== $ex"
		fio --output="$ex.out" "$ex.fio" 2> "$ex.err" &
		pid=$!
		while kill -0 $pid 2>/dev/null && ! written_enough; do
			sleep 1
		done
		if written_enough; then
			kill -INT $pid 2>/dev/null || true
			wait $pid || true
			echo "budget reached in $ex"
			exit 0
		fi
		rc=0
		wait $pid || rc=$?
		rm -f ./*.log
		if [ $rc != 0 ]; then
			failed[$ex]=$rc
			echo "cannot run: $ex (fio exit $rc)"
			tail -n 5 "$ex.err" "$ex.out"
		else
			ran=$((ran + 1))
		fi
	done
	[ $ran -gt 0 ] || { echo "no example job ran in a round" >&2; exit 1; }
done
