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
# They are for the guest: no recommended extras, and no service started
# on the host (policy-rc.d's 101, "action forbidden", unless the machine
# has a policy of its own), where a MariaDB server would only hold memory.
femu_need_pkgs() {
	local p missing=() policy=/usr/sbin/policy-rc.d
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
			missing+=("$p")
	done
	[ ${#missing[@]} != 0 ] || return 0
	[ "$(id -u)" = 0 ] || die "femu: missing packages: ${missing[*]} (run as root)"
	log "femu: apt-get install ${missing[*]}"
	apt-get -q update >/dev/null
	# In a subshell, whose traps remove the policy however it ends.
	(
		if [ ! -e "$policy" ]; then
			trap 'rm -f "$policy"' EXIT
			trap 'exit 130' INT TERM
			printf '#!/bin/sh\nexit 101\n' > "$policy"
			chmod 755 "$policy"
		fi
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
			--no-install-recommends "${missing[@]}" >&2
	) || die "femu: apt-get install ${missing[*]} failed"
}
