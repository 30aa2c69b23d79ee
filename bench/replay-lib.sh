# shellcheck shell=bash
# Sourced by bench/waf.sh, file-policies.sh, file-step.sh, half-life.sh,
# headline.sh, spread.sh and tenants.sh: the workloads, the small model
# they share and how a trace's replay is warmed up, so that all count
# write amplification from the same point.

# The workloads bench/waf.sh captures unless told, and the two held out
# from the design of write_stream_files "rate": no rule was tuned on them
# (bench/headline.sh captures both lists).
workloads_tuned="mixed mixed-nohints varmail dbwal bgcopy swap rocksdb rocksdb-nodiscard rocksdb-xfs dbench pgbench"
workloads_held_out="pgbench-backup pgbench-swap"

# The settings the replays of a capture share, from the environment:
# seeds (SEEDS draws, default DEFAULT), dest (GC_DEST: shared, the
# default, or per-stream), name (BASE, or BASE-per-stream for the output
# files), traces (TRACES), out (where the output files go) and op (OP).
replay_settings() {	# BASE DEFAULT
	seeds=${SEEDS:-$2}
	[ "$seeds" -ge 1 ] 2>/dev/null ||
		die "SEEDS: a number of draws, at least 1"
	dest=${GC_DEST:-shared}
	case $dest in
	shared) name=$1 ;;
	per-stream) name=$1-per-stream ;;
	*) die "GC_DEST: shared or per-stream" ;;
	esac
	traces=${TRACES:-$BUILD/bench/traces}
	out=$BUILD/bench
	mkdir -p "$out"
	op=${OP:-0.07}	# as bench/waf.sh
}

# TENANTS, or DEFAULT: numbers of copies, each at least 1 and given once.
replay_tenants() {	# DEFAULT
	local k seen=" "

	tenants=${TENANTS:-$1}
	for k in $tenants; do
		[[ $k =~ ^[1-9][0-9]*$ ]] ||
			die "TENANTS: numbers of copies, at least 1 ('$k')"
		[[ $seen != *" $k "* ]] || die "TENANTS: $k twice"
		seen+="$k "
	done
}

# The file system's size in 4 KiB pages: the logical space of the small
# model (and of each copy in the large one).
model_pages=$(( 128 * 256 ))

# Host page writes in TRACE, on a logical space of PAGES.
sim_pages() {	# TRACE PAGES
	[ -s "$1" ] || { echo 0; return; }
	"$ROOT/sim/ftl-sim" --trace "$1" --logical-pages "$2" --op 1 |
		awk '$1 == "host_pages" { print $2 }'
}

# Host page writes before counting starts: once the device (PAGES, with
# over-provisioning OP, K copies) has been written over once, so that
# garbage collection runs, and not before the fill (FILL pages a copy)
# has ended.
warmup_pages() {	# PAGES OP FILL K
	awk -v p="$1" -v op="$2" -v f="$3" -v k="$4" 'BEGIN {
		w = int(p * (1 + op)); if (f > w) w = f; printf "%d", w * k }'
}

# The workloads that DIR has replays of with N streams, sorted.
replay_workloads() {	# DIR N
	(cd "$1" && find . -maxdepth 1 -name "*-$2.replay" |
		sed -e 's|^\./||' -e "s/-$2\.replay\$//" | sort)
}

# Before replaying a capture in DIR with N streams: build the simulator,
# and set WORKLOADS, unless given, to every workload DIR has replays of.
replay_prepare() {	# DIR N
	make -s -C "$ROOT/sim"
	[ -d "$1" ] || die "no $1: run bench/waf.sh first (or set TRACES)"
	[ -n "${WORKLOADS:-}" ] || WORKLOADS=$(replay_workloads "$1" "$2")
	[ -n "$WORKLOADS" ] || die "no $1/*-$2.replay: run bench/waf.sh first"
}

# Workload WL's replay with N streams in DIR, for K copies at
# over-provisioning OP: sets replay (the trace), fill (its fill's page
# writes), warm (the host page writes not counted) and head (the fill's
# records, which every copy replays first).
replay_setup() {	# DIR WL N OP K
	replay=$1/$2-$3.replay
	[ -s "$replay" ] || die "no $replay"
	fill=$(sim_pages "$1/$2-$3.fill.trace" "$model_pages")
	warm=$(warmup_pages "$model_pages" "$4" "$fill" "$5")
	head=$(wc -l < "$1/$2-$3.fill.trace")
}

# One replay of TRACE on N streams, counted after $warm (replay_setup),
# each copy on the small model's logical space: the simulator's report.
# The options every replay shares, then OPTIONS (GC, policy, copies).
# FTL_SIM: another simulator binary (a tried_sim() build); sim/ftl-sim.
replay_sim() {	# TRACE N OP BLOCK_PAGES [ftl-sim options]
	local trace=$1 n=$2 op=$3 block_pages=$4

	shift 4
	"${FTL_SIM:-$ROOT/sim/ftl-sim}" --trace "$trace" \
		--logical-pages "$model_pages" \
		--op "$op" --streams "$n" --block-pages "$block_pages" \
		--warmup-pages "$warm" "$@"
}

# One row of the K-copies sweeps (tenants.sh, file-step.sh): the WAF of
# $replay (replay_setup) as K copies, each with file IDs of its own, on K
# times the small model with K x 256 KiB erase blocks, arrangement SEED,
# greedy GC into DEST; dies naming WL and the policy options if the
# simulator fails or reports no WAF.
replay_copies_waf() {	# WL N OP K DEST SEED [ftl-sim options]
	local wl=$1 n=$2 op=$3 k=$4 dest=$5 s=$6 w

	shift 6
	w=$(replay_waf "$replay" "$n" "$op" $((64 * k)) "$dest" "$@" \
		--replicas "$k" --replica-head "$head" \
		--replica-files distinct --replica-seed "$s") ||
		die "$wl, $*, $k copies, seed $s: the simulator failed"
	[ -n "$w" ] || die "$wl, $*, $k copies, seed $s: no WAF"
	echo "$w"
}

# The raw table of the K-copies sweeps (tenants.sh, file-step.sh): TSV
# gets a header and a row per workload of WORKLOADS, K of TENANTS, draw
# 1..SEEDS and POLICY, replayed from DIR with N streams at
# over-provisioning OP with greedy GC into DEST. A POLICY is an ftl-sim
# --policy, or step-S: the simulator's copy of "rate" with a stream
# further for each S-fold drop in write rate.
replay_copies_tsv() {	# TSV DIR N OP DEST SEEDS "TENANTS" POLICY...
	local tsv=$1 dir=$2 n=$3 op=$4 dest=$5 seeds=$6 tenants=$7
	local wl k s p w args

	shift 7
	echo -e "workload\tstreams\tcopies\tpolicy\tseed\tgc_dest\twaf" > "$tsv"
	for wl in $WORKLOADS; do
		for k in $tenants; do
			replay_setup "$dir" "$wl" "$n" "$op" "$k"
			log "$wl: $k copies, $seeds draws, GC destination $dest"
			for s in $(seq 1 "$seeds"); do
				for p in "$@"; do
					case $p in
					step-*) args=(--policy map --map-files temp-int
						--map-file-step "${p#step-}") ;;
					*) args=(--policy "$p") ;;
					esac
					w=$(replay_copies_waf "$wl" "$n" "$op" "$k" \
						"$dest" "$s" "${args[@]}") || exit 1
					echo -e "$wl\t$n\t$k\t$p\t$s\t$dest\t$w" >> "$tsv"
				done
			done
		done
	done
}

# The WAF of one replay of TRACE with greedy GC into DEST (replay_sim).
replay_waf() {	# TRACE N OP BLOCK_PAGES DEST [ftl-sim options]
	local trace=$1 n=$2 op=$3 block_pages=$4 dest=$5

	shift 5
	replay_sim "$trace" "$n" "$op" "$block_pages" --gc greedy \
		--gc-dest "$dest" "$@" | awk '$1 == "waf" { print $2 }'
}

# The scratch simulator of a record of rules tried (bench/results/*.sh
# with a *.diff): sim/ftl.c as of COMMIT, the simulator the diff was
# made against and run with, patched with DIFF and built in DIR, so that
# the record replays as it ran whatever sim/ has become since.
tried_sim() {	# DIR DIFF COMMIT
	if ! { rm -rf "$1" && cp -r "$ROOT/sim" "$1" &&
		git -C "$ROOT" show "$3:sim/ftl.c" > "$1/ftl.c" &&
		patch -s -d "$1" -p2 < "$2" && make -s -B -C "$1"; }; then
		die "no scratch simulator: $2 on sim/ftl.c of $3"
	fi
}
