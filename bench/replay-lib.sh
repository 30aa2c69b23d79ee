# shellcheck shell=bash
# Sourced by bench/waf.sh, bench/file-policies.sh and bench/half-life.sh:
# the small model they share and how a trace's replay is warmed up, so
# that the three count write amplification from the same point.

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
