#!/bin/bash
# bench/paired.sh tells a tie from a loss: per workload and K, the
# series' WAF minus the best causal rival's on the same draw, as a mean
# with its standard deviation and t. Feeds it tenants.sh tables whose
# answers are worked out by hand and checks the cells, and that bad
# input is refused.
set -u
here=$(cd "$(dirname "$0")" && pwd)
paired=$here/../../bench/paired.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=tests/host/lib/tap.sh
. "$here/lib/tap.sh"

# One row per policy and draw: WORKLOAD K SEED KERNEL AUTOSTREAM (the
# other causal rivals at 1.1, above both; the oracle at 1.0, not a rival).
table() {
	printf 'workload\tstreams\tcopies\tpolicy\tseed\tgc_dest\twaf\n'
	while read -r wl k seed kernel auto; do
		for p in single lifetime fstream; do
			printf '%s\t8\t%s\t%s\t%s\tshared\t1.1\n' "$wl" "$k" "$p" "$seed"
		done
		printf '%s\t8\t%s\tautostream\t%s\tshared\t%s\n' "$wl" "$k" "$seed" "$auto"
		printf '%s\t8\t%s\tkernel\t%s\tshared\t%s\n' "$wl" "$k" "$seed" "$kernel"
		printf '%s\t8\t%s\toracle\t%s\tshared\t1.0\n' "$wl" "$k" "$seed"
	done
}

# The table on standard input written to FILE and given to paired.sh:
# its whole output in $out, and in $cell the series-minus-best-rival
# cell of WORKLOAD's row.
run_table() {	# FILE WORKLOAD
	table > "$1"
	out=$("$paired" "$1" 2>&1)
	cell=$(awk -F'|' -v wl=" $2 " '$3 == wl { print $6 }' <<<"$out")
}

echo "1..5"

# Three draws, series minus AutoStream -0.01, -0.02 and 0: mean -0.01,
# sd 0.01, t = -0.01 / (0.01 / sqrt(3)) = -1.73.
run_table "$tmp/t.tsv" w <<'EOF2'
w 4 1 1.00 1.01
w 4 2 1.01 1.03
w 4 3 1.02 1.02
EOF2
want='| t | w | 4 | 3 | -0.0100 (0.0100, t -1.7) | -0.0900 (0.0100, t -15.6) | -0.0900 (0.0100, t -15.6) | -0.0900 (0.0100, t -15.6) | -0.0100 (0.0100, t -1.7) |'
grep -qxF -- "$want" <<<"$out"
result mean_sd_and_t_against_the_best_rival_per_draw $((! $?)) "$out"

# The best rival is taken per draw: AutoStream on draw 1, one stream
# (at 1.1) on draw 2, where AutoStream is at 1.2; the series is 0.01
# behind the best on each.
run_table "$tmp/b.tsv" v <<'EOF2'
v 8 1 1.05 1.04
v 8 2 1.11 1.20
EOF2
[ "$cell" = " +0.0100 (sd 0) " ]
result the_best_rival_is_chosen_on_each_draw $((! $?)) "$out"

# One draw: the difference alone, no spread.
run_table "$tmp/o.tsv" x <<'EOF2'
x 1 1 1.02 1.00
EOF2
[ "$cell" = " +0.0200 " ]
result one_draw_gives_the_difference_alone $((! $?)) "$out"

out=$("$paired" "$tmp/none.tsv" 2>&1)
rc=$?
[ $rc != 0 ] && grep -q "no $tmp/none.tsv" <<<"$out"
result a_missing_table_fails $((! $?)) "rc $rc" "$out"

out=$("$paired" 2>&1)
rc=$?
[ $rc = 2 ] && grep -q usage <<<"$out"
result no_table_is_a_usage_error $((! $?)) "rc $rc" "$out"

[ $fails = 0 ]
