#!/bin/bash
# The device benchmark's summary (bench/femu/summary.sh) calls the series
# lower or higher than the unpatched kernel only where the runs' min-max
# ranges do not overlap, and needs at least two runs a side to call
# anything. Feeds it small raw tables and checks the Markdown it writes.
set -u
here=$(cd "$(dirname "$0")" && pwd)
summary=$here/../../bench/femu/summary.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=tests/host/lib/tap.sh
. "$here/lib/tap.sh"

header="run	op_pct	workload	kernel	flash_mb	namespace_mb	warm_host	warm_media	host_bytes	media_bytes	waf	secs"
# table NAME "KERNEL WAF..." ...: a raw table, OP 7, workload w
table() {
	local name=$1 spec k w r
	shift
	echo "$header" > "$tmp/$name.tsv"
	for spec in "$@"; do
		k=${spec%% *} r=0
		for w in ${spec#* }; do
			r=$((r + 1))
			printf '%s\t7\tw\t%s\t128\t109\t1\t1\t100\t%s\t%s\t10\n' \
				"$r" "$k" "$(awk -v w="$w" 'BEGIN { printf "%d", w * 100 }')" "$w" >> "$tmp/$name.tsv"
		done
	done
}
# row NAME: the workload's row of NAME's table, or the summary's error
row() {
	"$summary" "$tmp/$1.tsv" "$tmp/$1" > "$tmp/$1.out" 2>&1 &&
		grep '^| w |' "$tmp/$1/$1.md"
}
check() {	# NAME PATTERN: the row matches
	local out
	out=$(row "$1")
	grep -q -- "$2" <<<"$out"
	result "$1" $((! $?)) "row: $out" "wanted: $2" "$(cat "$tmp/$1.out")"
}

echo "TAP version 13"
echo "1..8"
table lower_when_ranges_apart "base 3.0 3.2 3.1" "series 2.0 2.2 2.1"
check lower_when_ranges_apart '| 0\.677 | lower |$'
table higher_when_ranges_apart "base 2.0 2.1" "series 2.3 2.4"
check higher_when_ranges_apart '| higher |$'
table tie_when_ranges_overlap "base 3.0 3.4" "series 2.5 3.1"
check tie_when_ranges_overlap '| tie |$'
table no_verdict_from_one_run "base 3.0" "series 1.0"
check no_verdict_from_one_run '| no spread (n < 2) |$'
table mean_sd_min_max_n "base 2.0 4.0" "series 3.0 3.0"
check mean_sd_min_max_n '| 3\.00 ± 1\.41 \[2\.00-4\.00\] n=2 | 3\.00 ± 0\.00 \[3\.00-3\.00\] n=2 | 1\.000 | tie |$'
table missing_kernel_shows_dash "series 2.0 2.1"
check missing_kernel_shows_dash '| 2\.05 ± 0\.07 \[2\.00-2\.10\] n=2 | - | - |$'

# bench/femu/real.sh's table: OP "-" (a real SSD's own): the same
# verdict, under a heading that names no FEMU and no OP level.
table real_ssd_table "base 3.0 3.2" "series 2.0 2.2"
sed -i 's/^\([0-9]*\)\t7\t/\1\t-\t/' "$tmp/real_ssd_table.tsv"
out=$(row real_ssd_table)
md=$tmp/real_ssd_table/real_ssd_table.md
ok=0
grep -q '| lower |$' <<<"$out" && grep -qx '# Write amplification on a real FDP SSD' "$md" &&
	grep -qx "## The SSD's own over-provisioning" "$md" && ! grep -q 'FEMU\|OP -' "$md" && ok=1
result real_ssd_table $ok "$(cat "$md" 2>/dev/null)" "$(cat "$tmp/real_ssd_table.out")"

# An empty table is an error, not an empty result.
: > "$tmp/empty.tsv"
"$summary" "$tmp/empty.tsv" "$tmp/empty" > "$tmp/empty.out" 2>&1
rc=$?
result empty_table_fails $((rc != 0)) "exit $rc, wanted non-zero" "$(cat "$tmp/empty.out")"
[ "$fails" = 0 ]
