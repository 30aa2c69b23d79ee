#!/bin/bash
# make bench-report: rebuild the README's WAF tables and the plots it shows
# from the raw table committed in bench/results/, without a VM, so that
# every published number can be traced to a committed file.
#
# The README holds the tables between two markers naming their source:
#   <!-- waf-tables: bench/results/FILE.tsv -->
#   ...
#   <!-- /waf-tables -->
# This script rewrites what is between them (bench/waf-tables.sh) and
# redraws bench/results/waf-*.png (bench/report.sh) from the same file.
# git diff then shows whether the README said what the table says.
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"

readme=$ROOT/README.md
src=$(sed -n 's/^<!-- waf-tables: \(.*\) -->$/\1/p' "$readme")
[ -n "$src" ] || die "README.md has no <!-- waf-tables: FILE --> marker"
[ -s "$ROOT/$src" ] || die "README.md names $src, which is not there"

out=$BUILD/bench-report
rm -rf "$out"
mkdir -p "$out"
cp "$ROOT/$src" "$out/waf.tsv"
"$ROOT/bench/waf-tables.sh" "$out/waf.tsv" > "$out/waf.md"
BENCH_OUT=$out "$ROOT/bench/report.sh"

# Exactly one opening marker, then one closing marker; anything else
# leaves the README alone.
awk -v tables="$out/waf.md" '
	/^<!-- waf-tables: / {
		if (opened++) exit 1
		print; while ((getline l < tables) > 0) print l; skip = 1; next
	}
	/^<!-- \/waf-tables -->$/ { if (!skip || closed++) exit 1; skip = 0 }
	!skip
	END { if (!opened || !closed || skip) exit 1 }' "$readme" > "$out/README.md" ||
	die "README.md needs one <!-- waf-tables: FILE --> and, after it, one <!-- /waf-tables -->"
cp "$out/README.md" "$readme"
# Without gnuplot report.sh draws nothing: keep the committed plots then.
if compgen -G "$out/waf-*.png" > /dev/null; then
	rm -f "$ROOT"/bench/results/waf-*.png
	cp "$out"/waf-*.png "$ROOT/bench/results/"
fi
log "bench-report: README.md tables and bench/results/waf-*.png from $src"
