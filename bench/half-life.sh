#!/bin/bash
# The half-life of write_stream_files "rate" (Documentation/block/
# io-hints.rst): the kernel halves each file's write count per eighth of
# the device's capacity in writes. This replays the traces of a
# bench/waf.sh capture with the simulator's integer copy of that rule
# (ftl-sim --map-files temp-int) at half-lives of capacity / DIV for each
# DIV, next to the folding by ID (hash), to show how much the choice of an
# eighth matters.
#
#   half-life.sh
# Environment: TRACES (build/bench/traces), WORKLOADS (every
# <workload>-<STREAMS>.replay there), STREAMS (8), DIVS ("2 4 8 16 32 64"),
# MODEL: small (bench/waf.sh's 128 MiB model) or large (its 4 GiB model,
# 32 copies with file IDs of their own).
# Writes build/bench/half-life[-large].tsv (workload streams policy div
# gc_dest waf) and .md.
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"
. "$(dirname "$0")/replay-lib.sh"

n=${STREAMS:-8}
divs=${DIVS:-2 4 8 16 32 64}
traces=${TRACES:-$BUILD/bench/traces}
out=$BUILD/bench
mkdir -p "$out"
pages=$model_pages	# bench/waf.sh's small model (one copy)
op=0.07
case ${MODEL:-small} in
small)	k=1 block_pages=64 name=half-life model_args= ;;
large)	k=32 block_pages=2048 name=half-life-large
	model_args="--replicas $k --replica-files distinct" ;;
*)	die "MODEL: small or large" ;;
esac
tsv=$out/$name.tsv

replay_prepare "$traces" "$n"

# One replay: the WAF of POLICY ARGS with GC destination DEST.
waf() {
	local dest=$1
	shift
	# shellcheck disable=SC2086
	replay_waf "$replay" "$n" $op $block_pages "$dest" \
		--policy map "$@" $model_args \
		${model_args:+--replica-head $head}
}

echo -e "workload\tstreams\tpolicy\tdiv\tgc_dest\twaf" > "$tsv"
for wl in $WORKLOADS; do
	replay_setup "$traces" "$wl" "$n" $op $k
	log "$wl: half-lives of capacity / $divs"
	for dest in shared per-stream; do
		w=$(waf $dest)
		[ -n "$w" ] || die "$wl, hash, $dest: the simulator failed"
		echo -e "$wl\t$n\thash\t-\t$dest\t$w" >> "$tsv"
		for d in $divs; do
			w=$(waf $dest --map-files temp-int \
				--map-file-idle $(( pages * k / d )))
			[ -n "$w" ] || die "$wl, capacity / $d, $dest: the simulator failed"
			echo -e "$wl\t$n\ttemp-int\t$d\t$dest\t$w" >> "$tsv"
		done
	done
done

awk -F'\t' -v divs="$divs" -v model="${MODEL:-small}" '
	NR == 1 { next }
	{ key = $1 " | " $5; if (!seen[key]++) order[++nk] = key }
	$3 == "hash" { hash[key] = $6; next }
	{ w[key, $4] = $6 }
	END {
		nd = split(divs, d, " ")
		printf "WAF of files by rate (temp-int) with a half-life of capacity / DIV, and of files by ID (hash), model %s\n\n", model
		printf "| workload | GC destination | hash |"
		for (i = 1; i <= nd; i++) printf " / %s |", d[i]
		printf "\n|---|---|---|"
		for (i = 1; i <= nd; i++) printf "---|"
		printf "\n"
		for (j = 1; j <= nk; j++) {
			printf "| %s | %s |", order[j], hash[order[j]]
			for (i = 1; i <= nd; i++) printf " %s |", w[order[j], d[i]]
			printf "\n"
		}
	}' "$tsv" > "$out/$name.md"
cat "$out/$name.md"
