# shellcheck shell=bash
# shellcheck disable=SC2034	# used by the scripts that source it
# Sourced by bench/femu/{run,matrix,real}.sh and the W.prep scripts, after
# scripts/lib.sh: what the two tables and their workloads share.

# The raw table: one line per run (bench/femu/summary.sh reads it).
FEMU_TSV_HEADER="run	op_pct	workload	kernel	flash_mb	namespace_mb	warm_host	warm_media	host_bytes	media_bytes	waf	secs"

# Every workload of bench/femu/workloads, in name order.
femu_workloads() {
	local w
	for w in "$ROOT"/bench/femu/workloads/*.sh; do
		w=$(basename "$w" .sh)
		[ "$w" = lib ] || printf '%s ' "$w"
	done
}

# What workload W needs on the host, whose root a FEMU guest mounts: its
# packages and binaries (bench/femu/workloads/W.prep, where there is one).
femu_prep() {
	local prep=$ROOT/bench/femu/workloads/$1.prep
	[ ! -x "$prep" ] || "$prep" || die "femu: $1.prep failed"
}

# Install the Debian packages of "$@" that are missing (as root; the
# package lists are refreshed first, as a fresh machine may have none).
femu_need_pkgs() {
	local p missing=()
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
			missing+=("$p")
	done
	[ ${#missing[@]} != 0 ] || return 0
	[ "$(id -u)" = 0 ] || die "femu: missing packages: ${missing[*]} (run as root)"
	log "femu: apt-get install ${missing[*]}"
	apt-get -q update >/dev/null
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" >&2
}
