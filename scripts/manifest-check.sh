#!/bin/bash
# Check a run against what it should have reported, printing TAP: one
# "not ok" per problem, one "ok"/"not ok" per suite for its count.
#
#   manifest-check.sh [-m MANIFEST] [-a ALLOWLIST] [-s SERIES] FILE...
#
# FILE... are the run's TAP/KTAP files, as given to tap-summary.sh.
# MANIFEST (default tests/manifest) lists every expected test, one
# "SUITE<TAB>TEST" a line, or "SUITE<TAB>PREFIX*<TAB>COUNT" for exactly
# COUNT tests whose names begin with PREFIX; COUNT "patches" is the number
# of patches SERIES (default patches/series) lists, so that the series
# check's per-patch lines follow the series. ALLOWLIST (default
# tests/skip-allowlist) the skips that are allowed,
# "SUITE<TAB>TEST<TAB>REASON". Not ok: a listed suite that did not report,
# a listed test that did not report (a suite that ran fewer tests than
# listed), a prefix matched by more or fewer tests than its COUNT (a
# series check that skipped a patch), a test reported twice, a skip (also
# XFAIL, TODO) that the allowlist does not name, and a test or suite that
# the manifest does not list, also one whose file failed as a whole (no
# output, a plan 1..0), so that new tests get listed
# (scripts/manifest-update.sh regenerates the manifest from a good run).
# Failures themselves are tap-summary.sh's to count; this only adds to them.
# Exit status: 0 if nothing is wrong.
set -u
here=$(cd "$(dirname "$0")" && pwd)
manifest=$here/../tests/manifest
allow=$here/../tests/skip-allowlist
series=$here/../patches/series
while getopts m:a:s: o; do
	case $o in
	m) manifest=$OPTARG ;;
	a) allow=$OPTARG ;;
	s) series=$OPTARG ;;
	*) echo "usage: manifest-check.sh [-m MANIFEST] [-a ALLOWLIST] [-s SERIES] FILE..." >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
for f in "$manifest" "$allow"; do
	[ -f "$f" ] || { echo "Bail out! no $f"; exit 1; }
done

# Names as the messages show them: relative to the repository if inside it.
show() { case $1 in "$here/../"*) echo "${1#"$here/../"}" ;; *) echo "$1" ;; esac; }
# Patches as scripts/lib.sh's series_files() reads them; none if no file.
npatches=
[ -f "$series" ] && npatches=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$series" | wc -l)
out=$("$here/tap-summary.sh" "$@" |
	awk -v mname="$(show "$manifest")" -v aname="$(show "$allow")" \
		-v sname="$(show "$series")" -v npatches="$npatches" \
		-f "$here/manifest-check.awk" \
		part=manifest "$manifest" part=allow "$allow" part=results -)
printf '%s\n' "$out"
! grep -q '^not ok' <<<"$out"
