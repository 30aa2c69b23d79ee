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

awk -v tables="$out/waf.md" '
	/^<!-- waf-tables: / { print; while ((getline l < tables) > 0) print l; skip = 1; next }
	/^<!-- \/waf-tables -->$/ { skip = 0 }
	!skip' "$readme" > "$out/README.md"
grep -q '^<!-- /waf-tables -->$' "$out/README.md" ||
	die "README.md has no <!-- /waf-tables --> marker"
cp "$out/README.md" "$readme"
rm -f "$ROOT"/bench/results/waf-*.png
for p in "$out"/waf-*.png; do
	[ -e "$p" ] && cp "$p" "$ROOT/bench/results/"
done
log "bench-report: README.md tables and bench/results/waf-*.png from $src"
